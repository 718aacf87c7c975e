// The workspace's instructions for the model, the first found of each kind: AGENTS.md at the root,
// .github/copilot-instructions.md, CLAUDE.md, and the files in .modelgateway/rules/*.md. Both chat modes use them.
import * as vscode from 'vscode';
import { decodeText } from '../../chat/context/safety';

/** Each kind of rules file, in the order they go into the prompt. */
const RULES_FILES = ['AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md'];
const RULES_FOLDER = '.modelgateway/rules';
/** A rules file over this is cut: it rides along with every request. */
const MAX_RULES_CHARS = 16_000;

/** The rules as one block for the system prompt, and the names of the files they came from. */
export interface Rules {
  text: string;
  names: string[];
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const decoded = decodeText(await vscode.workspace.fs.readFile(uri));
    return decoded.ok ? decoded.text.slice(0, MAX_RULES_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the rules of the first workspace folder (none without a folder). */
export async function readRules(): Promise<Rules> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { text: '', names: [] };
  const found: Array<{ name: string; text: string }> = [];
  for (const name of RULES_FILES) {
    const text = await readText(vscode.Uri.joinPath(folder.uri, name));
    if (text?.trim()) found.push({ name, text });
  }
  try {
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, RULES_FOLDER));
    for (const [entry, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
      if (type !== vscode.FileType.File || !entry.endsWith('.md')) continue;
      const text = await readText(vscode.Uri.joinPath(folder.uri, RULES_FOLDER, entry));
      if (text?.trim()) found.push({ name: `${RULES_FOLDER}/${entry}`, text });
    }
  } catch {
    // No rules folder.
  }
  return {
    names: found.map((f) => f.name),
    text: found.map((f) => `# Workspace instructions (${f.name})\n${f.text.trim()}`).join('\n\n'),
  };
}

/** The system message with the rules after it (a new one when there was none). */
export function withRules(
  system: import('../../gateway/types').ChatMessage | undefined,
  rules: string,
): import('../../gateway/types').ChatMessage {
  const prompt = system?.role === 'system' && typeof system.content === 'string' ? system.content : '';
  return { role: 'system', content: prompt ? `${prompt}\n\n${rules}` : rules };
}
