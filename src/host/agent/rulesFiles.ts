// The workspace's instructions for the model, the first found of each kind: AGENTS.md at the root,
// .github/copilot-instructions.md, CLAUDE.md, and the files in .modelgateway/rules/*.md. Both chat modes use them.
import { readdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import { decodeText } from '../../chat/context/safety';
import { readDiskFile } from '../context/diskRead';

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

/** A rules file's bytes; rejects when it is missing, a folder or unreadable. */
async function readBytes(uri: vscode.Uri): Promise<Uint8Array> {
  if (uri.scheme !== 'file') return vscode.workspace.fs.readFile(uri);
  // The local disk directly: `workspace.fs` took most of a chat send's time on a busy machine (issue 25).
  const read = await readDiskFile(uri.fsPath, Number.MAX_SAFE_INTEGER);
  if (read.kind !== 'bytes') throw new Error(`${uri.fsPath} is not a file`);
  return read.bytes;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const decoded = decodeText(await readBytes(uri));
    return decoded.ok ? decoded.text.slice(0, MAX_RULES_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

/** The names of the regular files in `uri` (links left out, as `workspace.fs` types them apart), sorted. */
async function listFiles(uri: vscode.Uri): Promise<string[]> {
  const names =
    uri.scheme === 'file'
      ? (await readdir(uri.fsPath, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
      : (await vscode.workspace.fs.readDirectory(uri))
          .filter(([, type]) => type === vscode.FileType.File)
          .map(([name]) => name);
  return names.sort((a, b) => a.localeCompare(b));
}

/** The `.md` files of the rules folder, in name order (none without the folder). */
async function readRulesFolder(root: vscode.Uri): Promise<Array<{ name: string; text: string | undefined }>> {
  let names: string[];
  try {
    names = (await listFiles(vscode.Uri.joinPath(root, RULES_FOLDER))).filter((n) => n.endsWith('.md'));
  } catch {
    return []; // No rules folder.
  }
  return Promise.all(
    names.map(async (entry) => ({
      name: `${RULES_FOLDER}/${entry}`,
      text: await readText(vscode.Uri.joinPath(root, RULES_FOLDER, entry)),
    })),
  );
}

/**
 * The names at the root of the local folder `root`, lowercased (a case-insensitive disk opens `agents.md` as
 * `AGENTS.md`); undefined when it is not on the local disk or cannot be listed (then every rules path is tried).
 */
async function rootNames(root: vscode.Uri): Promise<Set<string> | undefined> {
  if (root.scheme !== 'file') return undefined;
  try {
    return new Set((await readdir(root.fsPath)).map((name) => name.toLowerCase()));
  } catch {
    return undefined;
  }
}

/**
 * Reads the rules of the first workspace folder (none without a folder), every file side by side: a chat send
 * waits for them before its request leaves, and read one after another they were most of its time. A path whose
 * first part is not at the root is not opened: one listing of the root costs less than opens that fail (each
 * builds an error with its stack), and a send in a workspace without rules opened four (issue 25).
 */
export async function readRules(): Promise<Rules> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { text: '', names: [] };
  const names = await rootNames(folder.uri);
  const mayExist = (path: string): boolean => !names || names.has(path.split('/')[0].toLowerCase());
  const [files, inFolder] = await Promise.all([
    Promise.all(
      RULES_FILES.filter(mayExist).map(async (name) => ({
        name,
        text: await readText(vscode.Uri.joinPath(folder.uri, name)),
      })),
    ),
    mayExist(RULES_FOLDER) ? readRulesFolder(folder.uri) : [],
  ]);
  const found = [...files, ...inFolder].filter((f): f is { name: string; text: string } => !!f.text?.trim());
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
