// The repository's ESLint config run on deliberately broken fixtures (test/fixtures/lint): it must fail on an
// import cycle and on every layer violation, and pass what is allowed.
import * as assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../harness/paths';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'lint');

describe('lint: layers and cycles', function () {
  this.timeout(60_000);
  let problems: Map<string, string[]>;

  before(async () => {
    // import-x/no-restricted-paths resolves its zones ('./src/host'…) from the process's directory.
    const cwd = process.cwd();
    process.chdir(FIXTURES);
    let results: ESLint.LintResult[];
    try {
      const eslint = new ESLint({ cwd: FIXTURES, overrideConfigFile: join(repoRoot, 'eslint.config.mjs') });
      results = await eslint.lintFiles(['src/**/*.ts']);
    } finally {
      process.chdir(cwd);
    }
    problems = new Map(
      results.map((r) => [
        relative(FIXTURES, r.filePath).split('\\').join('/'),
        r.messages.map((m) => `${m.ruleId}: ${m.message}`),
      ]),
    );
  });

  /** The rules that fired in one fixture file. */
  const rules = (file: string): string[] => (problems.get(file) ?? []).map((p) => p.split(':')[0]);

  it('fails on an import cycle, on both of its files', () => {
    assert.deepEqual(rules('src/chat/cycleA.ts'), ['import-x/no-cycle']);
    assert.deepEqual(rules('src/chat/cycleB.ts'), ['import-x/no-cycle']);
  });

  it('allows a cycle made only of a type import', () => {
    assert.deepEqual(problems.get('src/chat/typeOnly.ts'), []);
    assert.deepEqual(problems.get('src/chat/typeOnlyPeer.ts'), []);
  });

  it('fails when a pure layer imports host code, webview code or vscode', () => {
    assert.deepEqual(problems.get('src/gateway/usesHost.ts'), [
      'import-x/no-restricted-paths: Unexpected path "../host/glue" imported in restricted zone. Pure layers never import host or webview code.',
    ]);
    assert.deepEqual(rules('src/review/usesWebview.ts'), ['import-x/no-restricted-paths']);
    assert.deepEqual(rules('src/images/usesVscode.ts'), ['no-restricted-imports']);
  });

  it('fails when host/lm imports host/chat, or the webview imports host code', () => {
    assert.deepEqual(rules('src/host/lm/usesChat.ts'), ['import-x/no-restricted-paths']);
    assert.deepEqual(rules('src/webview/usesHost.ts'), ['import-x/no-restricted-paths']);
  });

  it('passes the files that break nothing', () => {
    for (const file of ['src/host/glue.ts', 'src/webview/view.ts', 'src/host/chat/session.ts']) {
      assert.deepEqual(problems.get(file), [], file);
    }
  });
});
