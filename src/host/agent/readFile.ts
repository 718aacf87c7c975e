import * as vscode from 'vscode';
import { PAGE_LINES, pageHeader, pageOfText } from '../../agent/toolText';
import { readToolText } from './fileText';
import { refused, resolveReadable, secretRefusal } from './refusals';
import type { HostTool, ToolEnv } from './types';

/**
 * `read_file(path, startLine?, endLine?)`: a page of a workspace file (at most PAGE_LINES lines and PAGE_TOKENS
 * tokens), headed by which lines these are and how to read the next page. An open editor's unsaved text wins.
 */
export function readFileTool(env: ToolEnv): HostTool {
  return async (input, signal) => {
    const path = String(input.path);
    const startLine = lineNumber(input.startLine) ?? 1;
    const endLine = lineNumber(input.endLine);
    if (endLine !== undefined && endLine < startLine) {
      return {
        content: `endLine (${endLine}) is before startLine (${startLine}); pass endLine >= startLine, or leave it out.`,
        isError: true,
      };
    }
    const resolved = await resolveReadable(path);
    if ('result' in resolved) return resolved.result;
    const needed = Math.min(endLine ?? Infinity, startLine + PAGE_LINES - 1);
    const read = await readToolText(resolved.uri, needed, signal);
    if ('refusal' in read) return refused(resolved.shown, read.refusal);
    const page = pageOfText(read.text, { startLine, endLine, complete: read.complete });
    const secret = await secretRefusal(resolved.shown, page.text, env.apiKey);
    if (secret) return secret;
    const header =
      pageHeader(resolved.shown, page, read.size) + (read.unsaved ? ' (unsaved editor text)' : '');
    return {
      content: `${header}\n${page.text}`,
      summary:
        page.endLine >= page.startLine
          ? vscode.l10n.t('Read {0}:{1}-{2}', resolved.shown, page.startLine, page.endLine)
          : vscode.l10n.t('Read {0}', resolved.shown),
    };
  };
}

/** A 1-based line number from the input, or undefined when absent or not a positive number. */
function lineNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}
