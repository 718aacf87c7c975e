/**
 * Deterministic Markdown for the rendering cases: long answers mixing prose, lists, fenced code and tables,
 * their chunkings, and a stored conversation of many turns. Seeded, so every run renders the same text.
 */
import type { Conversation, Turn } from '../../src/chat/types';
import { seededRandom } from '../support/seededRandom';

const WORDS = (
  'the client streams each delta to the webview which renders only the open block while settled blocks ' +
  'stay untouched so the cost per chunk does not grow with the answer and the reader can scroll select ' +
  'and copy code while tokens arrive from the gateway over server sent events with retries and timeouts'
).split(' ');
const FENCE = '```';

function sentence(rand: () => number): string {
  const n = 8 + Math.floor(rand() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  const styled = words.map((w, i) => (i === 3 ? `**${w}**` : i === 7 ? `\`${w}()\`` : w));
  const text = styled.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function paragraph(rand: () => number): string {
  return Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand)).join(' ');
}

function codeBlock(rand: () => number, index: number): string {
  const lines: string[] = [];
  const language = ['ts', 'python', 'json', 'bash'][index % 4];
  const count = 8 + Math.floor(rand() * 30);
  for (let i = 0; i < count; i++) {
    if (language === 'python') lines.push(`    value_${i} = compute(${i}, "item-${index}")  # step ${i}`);
    else if (language === 'json')
      lines.push(`  "key${i}": { "id": ${i}, "name": "entry ${index}", "ok": true },`);
    else if (language === 'bash')
      lines.push(`npm run build -- --target=node20 --step=${i} && echo "done ${index}"`);
    else lines.push(`  const value${i}: number = await compute(${i}, 'item-${index}'); // step ${i}`);
  }
  return `${FENCE}${language}\n${lines.join('\n')}\n${FENCE}`;
}

function table(rand: () => number, index: number): string {
  const rows = 4 + Math.floor(rand() * 12);
  const out = ['| Setting | Default | Effect |', '|:--------|-------:|:-------|'];
  for (let i = 0; i < rows; i++) out.push(`| \`option.${index}.${i}\` | ${i * 10} | ${sentence(rand)} |`);
  return out.join('\n');
}

function list(rand: () => number): string {
  const items = 3 + Math.floor(rand() * 5);
  return Array.from({ length: items }, (_, i) => `${i + 1}. ${sentence(rand)}`).join('\n');
}

/** A Markdown answer of about `bytes` characters: headings, prose, lists, fenced code and tables. */
export function markdownAnswer(bytes: number, seed = 1): string {
  const rand = seededRandom(seed);
  const blocks: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const kind = i % 10;
    const block =
      kind === 0
        ? `## Part ${i / 10 + 1}`
        : kind === 3 || kind === 7
          ? codeBlock(rand, i)
          : kind === 5
            ? table(rand, i)
            : kind === 8
              ? list(rand)
              : paragraph(rand);
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join('\n\n');
}

/** Cuts text into `count` chunks of varying length (0.5× to 1.5× the mean), never splitting a surrogate pair. */
export function chunkText(text: string, count: number, seed = 7): string[] {
  const rand = seededRandom(seed);
  const mean = text.length / count;
  const chunks: string[] = [];
  let at = 0;
  for (let i = 0; i < count && at < text.length; i++) {
    let end = i === count - 1 ? text.length : Math.min(text.length, Math.round(at + mean * (0.5 + rand())));
    if (end <= at) end = at + 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end++;
    chunks.push(text.slice(at, end));
    at = end;
  }
  if (at < text.length) chunks[chunks.length - 1] += text.slice(at);
  return chunks;
}

/** A stored conversation of `messages` turns (user and assistant alternating) totalling about `bytes` of text. */
export function conversation(messages: number, bytes: number): Conversation {
  const pairs = Math.ceil(messages / 2);
  const perAnswer = Math.max(200, Math.round(bytes / pairs) - 300);
  const turns: Turn[] = [];
  const created = Date.UTC(2025, 0, 1);
  for (let i = 0; i < pairs; i++) {
    const at = created + i * 60_000;
    turns.push({
      id: `u${i}`,
      role: 'user',
      content: `Question ${i}: ${sentence(seededRandom(i + 1000))} How?`,
      createdAt: at,
    });
    if (turns.length >= messages) break;
    turns.push({
      id: `a${i}`,
      role: 'assistant',
      model: 'alpha-sonnet-4-5-20250929',
      content: `Answer ${i}.\n\n${markdownAnswer(perAnswer, i + 1)}\n\nEnd of answer ${i}.`,
      status: 'complete',
      finishReason: 'stop',
      usage: {
        prompt_tokens: 100,
        completion_tokens: Math.round(perAnswer / 4),
        total_tokens: 100 + Math.round(perAnswer / 4),
      },
      createdAt: at + 1000,
    });
  }
  return {
    id: 'bench-history',
    title: 'Benchmark conversation',
    model: 'alpha-sonnet-4-5-20250929',
    createdAt: created,
    updatedAt: created + pairs * 60_000,
    turns,
  };
}

/** Characters of text in a conversation's turns. */
export function conversationChars(c: Conversation): number {
  return c.turns.reduce((n, t) => n + t.content.length, 0);
}
