// The text a Markdown answer must show, block by block, for exact checks in the real chat view: parsed with
// markdown-it as the webview configures it, compared with the text of the rendered blocks.
import MarkdownIt from 'markdown-it';
import type { Locator } from 'playwright-core';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.linkify.set({ fuzzyLink: false });

/** The text of each block (paragraph, list item, heading, table cell, code block) `markdown` renders to, in order. */
export function expectedBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  for (const token of md.parse(markdown, {})) {
    if (token.type === 'inline') {
      const text = (token.children ?? [])
        .map((c) => (c.type === 'softbreak' || c.type === 'hardbreak' ? '\n' : c.content))
        .join('');
      blocks.push(text);
    } else if (token.type === 'fence' || token.type === 'code_block') {
      blocks.push(token.content.replace(/\n$/, ''));
    }
  }
  return blocks;
}

/** The text of each rendered block of an answer (`.markdown.answer`), in document order. */
export function shownBlocks(answer: Locator): Promise<string[]> {
  return answer.locator('.markdown.answer').evaluate((root) => {
    const blocks: string[] = [];
    const selector = 'p, li, h1, h2, h3, h4, h5, h6, th, td, pre';
    for (const el of Array.from(root.querySelectorAll<HTMLElement>(selector))) {
      // A loose list item holds paragraphs (counted themselves); a tight one holds its text directly.
      if (el.tagName === 'LI' && el.querySelector(':scope > p')) continue;
      if (el.closest('pre') && el.tagName !== 'PRE') continue;
      blocks.push((el.textContent ?? '').replace(/\n$/, ''));
    }
    return blocks;
  });
}
