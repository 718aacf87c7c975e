/**
 * Case 7's inputs: a generated workspace of tens of thousands of files in nested folders with realistic
 * names (a monorepo of packages with sources, tests and docs), the picker queries typed in it, and a large
 * source file to attach. Deterministic (seeded), so every run searches the same tree.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../support/seededRandom';

const PACKAGES = ['core', 'api', 'web', 'cli', 'auth', 'billing', 'search', 'storage', 'editor', 'shared'];
const AREAS = [
  'components',
  'services',
  'models',
  'utils',
  'hooks',
  'handlers',
  'adapters',
  'views',
  'store',
];
const NOUNS = [
  'user',
  'account',
  'invoice',
  'session',
  'token',
  'payment',
  'order',
  'product',
  'cart',
  'profile',
  'settings',
  'report',
  'query',
  'index',
  'cache',
  'event',
  'message',
  'channel',
  'document',
  'folder',
  'request',
  'response',
  'schema',
  'config',
];
const ROLES = [
  'Service',
  'Controller',
  'Store',
  'View',
  'Card',
  'List',
  'Form',
  'Client',
  'Mapper',
  'Parser',
];
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'tsx', 'js', 'json', 'md', 'css', 'py'];

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** The relative paths of a generated tree of `count` files (unique, '/'-separated). */
export function workspacePaths(count: number, seed = 7): string[] {
  const next = seededRandom(seed);
  const paths = new Set<string>();
  while (paths.size < count) {
    const pkg = pick(next, PACKAGES);
    const area = pick(next, AREAS);
    const noun = pick(next, NOUNS);
    const role = pick(next, ROLES);
    const ext = pick(next, EXTENSIONS);
    const feature = `${pick(next, NOUNS)}-${Math.floor(next() * 40)}`;
    const test = next() < 0.25;
    const folder = `packages/${pkg}/${test ? 'test' : 'src'}/${area}/${feature}`;
    const name = ext === 'md' ? `${noun}-${role.toLowerCase()}` : `${noun}${role}${test ? '.test' : ''}`;
    paths.add(`${folder}/${name}.${ext}`);
  }
  return [...paths];
}

/** Writes the tree of `workspacePaths(count)` below `root`, each file a line long; returns its paths. */
export function writeWorkspace(root: string, count: number): string[] {
  const paths = workspacePaths(count);
  const made = new Set<string>();
  for (const path of paths) {
    const folder = path.slice(0, path.lastIndexOf('/'));
    if (!made.has(folder)) {
      mkdirSync(join(root, folder), { recursive: true });
      made.add(folder);
    }
    writeFileSync(join(root, path), `// ${path}\n`);
  }
  return paths;
}

/**
 * Queries as a user types them into the picker: the prefixes of a few names, a folder-and-name query and
 * two-word queries (30 in all, each one a keystroke's search).
 */
export function pickerQueries(): string[] {
  const typed = ['invoiceServ', 'userProfileCard', 'sessionToken'];
  const prefixes = typed.flatMap((word) => Array.from({ length: 7 }, (_, i) => word.slice(0, i + 3)));
  return [
    ...prefixes,
    'api/order',
    'billing pay',
    'web cart list',
    'auth token',
    'store cache',
    'test schema',
  ];
}

/** About `bytes` of plausible TypeScript (ASCII), for the large attachment. */
export function largeSource(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block =
      `/** Computes the ${NOUNS[i % NOUNS.length]} total for batch ${i}. */\n` +
      `export function total${i}(items: ReadonlyArray<{ price: number; count: number }>): number {\n` +
      `  let sum = 0;\n  for (const item of items) sum += item.price * item.count; // line ${i}\n` +
      `  return Math.round(sum * 100) / 100;\n}\n\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join('').slice(0, bytes);
}

/** The three files the host share attaches (ledgers/ of the workspace). */
export const LEDGER_FILES = ['ledgerAlpha.ts', 'ledgerBeta.ts', 'ledgerGamma.ts'];

/**
 * Writes the three attached files into the workspace before the editor starts, as files a user attaches were
 * written before: a file changed within the last seconds is read again in full at Enter (unchangedRead.ts).
 */
export function writeLedgers(folder: string): void {
  mkdirSync(join(folder, 'ledgers'), { recursive: true });
  LEDGER_FILES.forEach((name, i) =>
    writeFileSync(join(folder, 'ledgers', name), largeSource(3000 + i * 1000)),
  );
}
