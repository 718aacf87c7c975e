// The emulator shows what arrived as attachments, so a test can prove they travelled: each block's kind, path
// and line range, in the order sent. Only the opening lines the extension writes are read.

const OPENING = /^<attachment ([^>\n]*)>$/gm;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;

/** One attachment block as the emulator saw it. */
export interface ReceivedAttachment {
  kind: string;
  path: string;
  lines: string;
}

/** The attachment blocks of a user message, read from their opening lines. */
export function receivedAttachments(userText: string): ReceivedAttachment[] {
  const found: ReceivedAttachment[] = [];
  for (const match of userText.matchAll(OPENING)) {
    const attributes = new Map<string, string>();
    for (const [, name, value] of match[1].matchAll(ATTRIBUTE)) attributes.set(name, unescape(value));
    found.push({
      kind: attributes.get('kind') ?? '',
      path: attributes.get('path') ?? '',
      lines: attributes.get('lines') ?? '',
    });
  }
  return found;
}

/** The answer's first paragraph when attachments arrived: "Attachments received: file `src/a.ts` lines 3-9; …". */
export function attachmentEcho(userText: string): string | undefined {
  const received = receivedAttachments(userText);
  if (!received.length) return undefined;
  const items = received.map(
    (a) => `${a.kind}${a.path ? ` \`${a.path}\`` : ''}${a.lines ? ` lines ${a.lines}` : ''}`,
  );
  return `Attachments received: ${items.join('; ')}.`;
}

function unescape(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const SELECTION_BLOCK = /^<attachment kind="selection"[^>\n]*>\n(`{3,}|~{3,})([\w+#.-]*)\n([\s\S]*?)\n\1$/m;

/** The code of the message's first selection attachment (Explain Selection sends the code as one), if any. */
export function selectionAttachment(userText: string): { language: string; code: string } | undefined {
  const m = SELECTION_BLOCK.exec(userText);
  return m ? { language: m[2] || 'code', code: m[3] } : undefined;
}
