// The agent's read-only tools in the real extension host, on the fixture workspace (a temporary copy): each tool's
// answer for normal input, each refusal of the chat context, VS Code's own ripgrep and the fallback without it.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../src/agent/types';
import { writeFileAtomic } from '../../src/host/agent/atomicWrite';
import { readOnlyTools } from '../../src/host/agent/readOnlyTools';
import { ripgrepCandidates } from '../../src/host/search/ripgrep';
import type { ToolEnv } from '../../src/host/agent/types';
import { resolveWorkspacePath } from '../../src/host/agent/workspaceFiles';
import { closeAllEditors, workspaceRoot } from './helpers';

const KEY = 'sk-agent-tools-key-7d3e91';
const NEEDLE = 'agentNeedle42';
const DIR = 'agent-tools';

interface Spawned {
  command: string;
  args: readonly string[];
}

/** The tools with a spy on ripgrep's starts; `ripgrepPath` injects a binary (a missing one forces the fallback). */
function toolsWith(ripgrepPath?: string): {
  run: (name: string, input: Record<string, unknown>) => Promise<ToolResult>;
  spawned: Spawned[];
} {
  const spawned: Spawned[] = [];
  const env: ToolEnv = {
    apiKey: () => Promise.resolve(KEY),
    onSpawn: (command, args) => spawned.push({ command, args }),
    ...(ripgrepPath !== undefined ? { ripgrepPath } : {}),
  };
  const tools = readOnlyTools(env);
  return { run: (name, input) => tools[name](input, new AbortController().signal), spawned };
}

const lines = (n: number, word = 'row'): string =>
  Array.from({ length: n }, (_, i) => `${word} ${i + 1}\n`).join('');

describe('agent read-only tools (extension host)', function () {
  this.timeout(60_000);
  let root: string;
  let outside: string;
  let restoreExclude: unknown;

  before(async () => {
    root = workspaceRoot().fsPath;
    const at = (path: string): string => join(root, DIR, path);
    mkdirSync(at('src'), { recursive: true });
    mkdirSync(at('ignored-dir'), { recursive: true });
    mkdirSync(at('excluded-by-setting'), { recursive: true });
    writeFileSync(
      at('src/a.ts'),
      `export const a = 1;\n// ${NEEDLE} in a\nexport function parseConfig() {}\n`,
    );
    writeFileSync(at('src/b.ts'), `// nothing\n// ${NEEDLE} in b\n`);
    writeFileSync(at('many.txt'), lines(312, `manyHits`));
    writeFileSync(at('long.txt'), lines(2310));
    // Over the whole-read size: read only as far as the page needs.
    writeFileSync(at('huge.log'), lines(500_000, 'a fairly long log line that fills the huge file'));
    writeFileSync(at('binary.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]));
    writeFileSync(at('keyed.txt'), `token = "${KEY}"\n`);
    writeFileSync(at('.env'), `SECRET=${NEEDLE}\n`);
    writeFileSync(at('.gitignore'), 'ignored-dir/\n');
    writeFileSync(at('ignored-dir/hidden.ts'), `// ${NEEDLE} ignored\n`);
    writeFileSync(at('excluded-by-setting/x.ts'), `// ${NEEDLE} excluded\n`);
    outside = mkdtempSync(join(tmpdir(), 'mg-outside-'));
    writeFileSync(join(outside, 'secret.txt'), `${NEEDLE} outside\n`);
    symlinkSync(outside, at('outside-link'));
    symlinkSync(join(outside, 'secret.txt'), at('outside-file-link'));
    const files = vscode.workspace.getConfiguration('files');
    restoreExclude = files.inspect('exclude')?.globalValue;
    await files.update('exclude', { '**/excluded-by-setting': true }, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await closeAllEditors();
    await vscode.workspace
      .getConfiguration('files')
      .update('exclude', restoreExclude, vscode.ConfigurationTarget.Global);
    rmSync(join(root, DIR), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  describe('read_file', () => {
    it('reads a small file whole, headed by its lines', async () => {
      const result = await toolsWith().run('read_file', { path: `${DIR}/src/b.ts` });
      assert.equal(result.isError, undefined);
      assert.equal(result.content, `${DIR}/src/b.ts: lines 1-2 of 2.\n// nothing\n// ${NEEDLE} in b\n`);
      assert.equal(result.summary, `Read ${DIR}/src/b.ts:1-2`);
    });

    it('pages a long file and says how to read the next page', async () => {
      const { run } = toolsWith();
      const first = await run('read_file', { path: `${DIR}/long.txt` });
      const [header, ...rest] = first.content.split('\n');
      assert.equal(
        header,
        `${DIR}/long.txt: lines 1-400 of 2,310; call read_file with startLine 401 for more.`,
      );
      assert.equal(rest.join('\n'), lines(400));
      const next = await run('read_file', { path: `${DIR}/long.txt`, startLine: 401 });
      assert.ok(
        next.content.startsWith(`${DIR}/long.txt: lines 401-800 of 2,310; call read_file with startLine 801`),
      );
      assert.ok(next.content.split('\n')[1] === 'row 401');
      const range = await run('read_file', { path: `${DIR}/long.txt`, startLine: 2309, endLine: 2400 });
      assert.equal(range.content, `${DIR}/long.txt: lines 2309-2310 of 2,310.\nrow 2309\nrow 2310\n`);
    });

    it('reads a huge file only as far as the page (no line count), and pages on', async () => {
      const size = statSync(join(root, DIR, 'huge.log')).size;
      assert.ok(size > 4 * 1024 * 1024, `huge.log is ${size} bytes`);
      const result = await toolsWith().run('read_file', { path: `${DIR}/huge.log`, startLine: 1001 });
      const header = result.content.split('\n')[0];
      assert.match(
        header,
        /: lines 1001-1\d{3} of a \d+ MB file \(line count not read\); call read_file with startLine 1\d{3} for more\.$/,
      );
      assert.equal(result.content.split('\n')[1], 'a fairly long log line that fills the huge file 1001');
    });

    it("takes an open editor's unsaved text over the disk", async () => {
      const path = join(root, DIR, 'unsaved.ts');
      writeFileSync(path, 'on disk\n');
      const uri = vscode.Uri.file(path);
      const document = await vscode.workspace.openTextDocument(uri);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, new vscode.Position(0, 0), '// unsaved line\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(document.isDirty);
      try {
        const result = await toolsWith().run('read_file', { path: `${DIR}/unsaved.ts` });
        assert.equal(
          result.content,
          `${DIR}/unsaved.ts: lines 1-2 of 2. (unsaved editor text)\n// unsaved line\non disk\n`,
        );
      } finally {
        // Saved before it is removed: a dirty document that outlives the test is written back by auto-save or hot
        // exit after the removal, and the later find_files tests list it.
        await document.save();
        await closeAllEditors();
        rmSync(path, { force: true });
      }
    });

    const refusals: Array<[string, string, RegExp]> = [
      ['a path with ..', `${DIR}/../../etc/passwd`, /without '\.\.'/],
      ['an absolute path outside', '/etc/passwd', /outside the workspace/],
      ['a link to a folder outside', `${DIR}/outside-link/secret.txt`, /symbolic link that leads outside/],
      ['a link to a file outside', `${DIR}/outside-file-link`, /symbolic link that leads outside/],
      ['a binary file', `${DIR}/binary.bin`, /binary file/],
      ['a secret (modelGateway.context.exclude)', `${DIR}/.env`, /secrets pattern "\*\*\/\.env"/],
      ['a file holding the API key', `${DIR}/keyed.txt`, /API key/],
      ['a missing file', `${DIR}/nope.ts`, /does not exist/],
      ['a folder', `${DIR}/src`, /is a folder/],
    ];
    for (const [what, path, reason] of refusals) {
      it(`refuses ${what}, saying why`, async () => {
        const result = await toolsWith().run('read_file', { path });
        assert.equal(result.isError, true, result.content);
        assert.match(result.content, reason);
        assert.ok(!result.content.includes(NEEDLE) && !result.content.includes(KEY), result.content);
      });
    }

    it('accepts an absolute path inside the workspace', async () => {
      const result = await toolsWith().run('read_file', { path: join(root, DIR, 'src/b.ts') });
      assert.equal(result.isError, undefined, result.content);
      assert.ok(result.content.startsWith(`${DIR}/src/b.ts: lines 1-2 of 2.`));
    });
  });

  describe('list_dir and find_files', () => {
    const expected = ['src/', 'binary.bin', 'huge.log', 'keyed.txt', 'long.txt', 'many.txt'];

    it('list_dir lists folders then files, without what .gitignore or files.exclude leave out (ripgrep)', async () => {
      const { run, spawned } = toolsWith();
      const result = await run('list_dir', { path: DIR });
      const [head, ...entries] = result.content.split('\n');
      assert.match(head, new RegExp(`^Entries of ${DIR}: \\d+\\.$`));
      for (const entry of expected) assert.ok(entries.includes(entry), `${entry} in ${entries.join(', ')}`);
      for (const entry of ['ignored-dir/', 'excluded-by-setting/', 'outside-link/', 'outside-link'])
        assert.ok(!entries.includes(entry), `${entry} listed`);
      assert.equal(spawned.length, 1);
    });

    it('list_dir without ripgrep lists the entries minus files.exclude', async () => {
      const { run, spawned } = toolsWith('/nonexistent/rg');
      const entries = (await run('list_dir', { path: DIR })).content.split('\n').slice(1);
      for (const entry of expected) assert.ok(entries.includes(entry), `${entry} in ${entries.join(', ')}`);
      assert.ok(!entries.includes('excluded-by-setting/'));
      assert.equal(spawned.length, 0);
    });

    it('list_dir refuses a file, a missing folder and a way out', async () => {
      const { run } = toolsWith();
      assert.match((await run('list_dir', { path: `${DIR}/long.txt` })).content, /is a file, not a folder/);
      assert.match((await run('list_dir', { path: `${DIR}/nope` })).content, /does not exist/);
      assert.match((await run('list_dir', { path: '..' })).content, /without '\.\.'/);
      assert.match((await run('list_dir', { path: `${DIR}/outside-link` })).content, /symbolic link/);
    });

    for (const [engine, path] of [
      ['ripgrep', undefined],
      ['the fallback', '/nonexistent/rg'],
    ] as const) {
      it(`find_files matches a glob, .gitignore and files.exclude respected (${engine})`, async () => {
        const { run } = toolsWith(path);
        const result = await run('find_files', { glob: `${DIR}/**/*.ts` });
        const [head, ...paths] = result.content.split('\n');
        const expectedPaths = [`${DIR}/src/a.ts`, `${DIR}/src/b.ts`];
        // The fallback (findFiles) does not read .gitignore.
        if (engine === 'the fallback') expectedPaths.unshift(`${DIR}/ignored-dir/hidden.ts`);
        assert.deepEqual(paths, expectedPaths);
        assert.equal(head, `Files matching ${DIR}/**/*.ts: ${expectedPaths.length}.`);
        assert.equal(result.summary, `Found ${expectedPaths.length} files for \`${DIR}/**/*.ts\``);
      });
    }
  });

  describe('search_text', () => {
    it("runs VS Code's own ripgrep from under the app root, and answers path:line: text", async () => {
      const { run, spawned } = toolsWith();
      const result = await run('search_text', { query: NEEDLE });
      assert.equal(spawned.length, 1);
      assert.ok(spawned[0].command.startsWith(vscode.env.appRoot), spawned[0].command);
      assert.ok(ripgrepCandidates(vscode.env.appRoot).includes(spawned[0].command), spawned[0].command);
      assert.ok(spawned[0].args.includes('--json'));
      const [head, ...hits] = result.content.split('\n');
      assert.equal(head, `Matches for "${NEEDLE}": 2.`);
      assert.deepEqual(hits.sort(), [
        `${DIR}/src/a.ts:2: // ${NEEDLE} in a`,
        `${DIR}/src/b.ts:2: // ${NEEDLE} in b`,
      ]);
      assert.equal(result.summary, `Searched \`${NEEDLE}\`: 2 results`);
    });

    it('without ripgrep (a wrong path injected), the fallback finds the same lines and never what it must not', async () => {
      const { run, spawned } = toolsWith(join(outside, 'no-rg-here'));
      const result = await run('search_text', { query: NEEDLE });
      assert.equal(spawned.length, 0);
      const hits = result.content.split('\n').slice(1).sort();
      // Not .env (secret), not excluded-by-setting, not the links out; only .gitignore is not read without ripgrep.
      assert.deepEqual(hits, [
        `${DIR}/ignored-dir/hidden.ts:1: // ${NEEDLE} ignored`,
        `${DIR}/src/a.ts:2: // ${NEEDLE} in a`,
        `${DIR}/src/b.ts:2: // ${NEEDLE} in b`,
      ]);
    });

    for (const [engine, path] of [
      ['ripgrep', undefined],
      ['the fallback', '/nonexistent/rg'],
    ] as const) {
      it(`caps and counts: "first 50 of 312" (${engine})`, async () => {
        const result = await toolsWith(path).run('search_text', {
          query: 'manyHits \\d+$',
          isRegex: true,
          glob: '*.txt',
        });
        const [head, ...hits] = result.content.split('\n');
        assert.equal(
          head,
          'Matches for "manyHits \\\\d+$": first 50 of 312. Narrow the query or pass a glob to see the rest.',
        );
        assert.equal(hits.length, 50);
        assert.ok(
          hits.every((h) => h.startsWith(`${DIR}/many.txt:`)),
          hits[0],
        );
      });

      it(`leaves out lines that hold the API key, and says so (${engine})`, async () => {
        const result = await toolsWith(path).run('search_text', { query: 'token = ', glob: `${DIR}/**` });
        assert.ok(!result.content.includes(KEY), result.content);
        assert.match(result.content, /1 matching line\(s\) held the user's API key/);
      });

      it(`reports an invalid regular expression as a tool error (${engine})`, async () => {
        const result = await toolsWith(path).run('search_text', { query: '(unclosed', isRegex: true });
        assert.equal(result.isError, true);
        assert.match(result.content, /regular expression is invalid/);
      });
    }

    it('stops when the signal aborts', async () => {
      const tools = readOnlyTools({ apiKey: () => Promise.resolve(KEY) });
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(tools.search_text({ query: NEEDLE }, controller.signal));
    });
  });

  describe('search_symbols and get_problems', () => {
    it('search_symbols answers from the workspace symbol providers, kept to workspace files that are not secrets', async () => {
      const inside = vscode.Uri.file(join(root, DIR, 'src/a.ts'));
      const at = (uri: vscode.Uri, line: number): vscode.Location =>
        new vscode.Location(uri, new vscode.Range(line, 0, line, 5));
      const provider = vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols: (query) =>
          query === 'zzAgentSym'
            ? [
                new vscode.SymbolInformation(
                  'zzAgentSymbol',
                  vscode.SymbolKind.Function,
                  'config',
                  at(inside, 2),
                ),
                new vscode.SymbolInformation(
                  'zzAgentSymbolSecret',
                  vscode.SymbolKind.Variable,
                  '',
                  at(vscode.Uri.file(join(root, DIR, '.env')), 0),
                ),
                new vscode.SymbolInformation(
                  'zzAgentSymbolOutside',
                  vscode.SymbolKind.Class,
                  '',
                  at(vscode.Uri.file('/etc/x.ts'), 0),
                ),
              ]
            : [],
      });
      try {
        const result = await toolsWith().run('search_symbols', { query: 'zzAgentSym' });
        assert.equal(
          result.content,
          `Symbols matching "zzAgentSym": 1.\nzzAgentSymbol  function  ${DIR}/src/a.ts:3  (in config)`,
        );
        assert.equal(result.summary, 'Searched symbols `zzAgentSym`: 1 results');
        assert.ok(!result.content.includes('Secret') && !result.content.includes('Outside'), result.content);
      } finally {
        provider.dispose();
      }
    });

    it('get_problems lists errors and warnings of workspace files, or of one file', async () => {
      const a = vscode.Uri.file(join(root, DIR, 'src/a.ts'));
      const b = vscode.Uri.file(join(root, DIR, 'src/b.ts'));
      const diagnostics = vscode.languages.createDiagnosticCollection('agent-tools-test');
      const problem = (message: string, severity = vscode.DiagnosticSeverity.Error): vscode.Diagnostic => {
        const d = new vscode.Diagnostic(new vscode.Range(1, 3, 1, 8), message, severity);
        d.source = 'ts';
        return d;
      };
      diagnostics.set(a, [
        problem('Cannot find name x.'),
        problem('just a hint', vscode.DiagnosticSeverity.Hint),
      ]);
      diagnostics.set(b, [problem('Unused b.', vscode.DiagnosticSeverity.Warning)]);
      diagnostics.set(vscode.Uri.file(join(root, DIR, '.env')), [problem('secret problem')]);
      diagnostics.set(vscode.Uri.file('/etc/outside.ts'), [problem('outside problem')]);
      try {
        const { run } = toolsWith();
        const all = (await run('get_problems', {})).content;
        assert.ok(all.includes(`${DIR}/src/a.ts:2:4  error  Cannot find name x. (ts)`), all);
        assert.ok(all.includes(`${DIR}/src/b.ts:2:4  warning  Unused b. (ts)`), all);
        for (const left of ['hint', 'secret problem', 'outside problem']) assert.ok(!all.includes(left), all);
        const one = await run('get_problems', { path: `${DIR}/src/b.ts` });
        assert.equal(
          one.content,
          `Errors and warnings in ${DIR}/src/b.ts: 1.\n${DIR}/src/b.ts:2:4  warning  Unused b. (ts)`,
        );
        assert.equal(one.summary, `Problems in ${DIR}/src/b.ts: 1`);
        assert.match((await run('get_problems', { path: '../x.ts' })).content, /without '\.\.'/);
      } finally {
        diagnostics.dispose();
      }
    });
  });

  describe('file access for the edit tools', () => {
    it('resolves a new file in a new folder, and refuses a path through a link out or a dangling link', async () => {
      const fresh = await resolveWorkspacePath(`${DIR}/new/deeper/file.ts`);
      assert.ok('uri' in fresh && fresh.uri.fsPath === join(root, DIR, 'new/deeper/file.ts'));
      const through = await resolveWorkspacePath(`${DIR}/outside-link/new.ts`);
      assert.ok('refusal' in through && through.refusal.kind === 'linkOut');
      symlinkSync(join(outside, 'not-yet'), join(root, DIR, 'dangling'));
      const dangling = await resolveWorkspacePath(`${DIR}/dangling`);
      assert.ok('refusal' in dangling && dangling.refusal.kind === 'linkOut');
      assert.ok(!existsSync(join(outside, 'not-yet')));
    });

    it('writes atomically: new bytes under the name, permissions kept, no temporary file left', async () => {
      const path = join(root, DIR, 'script.sh');
      writeFileSync(path, '#!/bin/sh\necho old\n', { mode: 0o755 });
      await writeFileAtomic(vscode.Uri.file(path), new TextEncoder().encode('#!/bin/sh\necho new\n'));
      assert.equal(
        (await vscode.workspace.fs.readFile(vscode.Uri.file(path))).toString(),
        '#!/bin/sh\necho new\n',
      );
      assert.equal(statSync(path).mode & 0o777, 0o755);
      const names = await readdir(join(root, DIR));
      assert.deepEqual(
        names.filter((n) => n.includes('.partial-')),
        [],
      );
    });
  });
});
