import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_PROTECTED_FILES, isProtected, protectingPattern } from '../../../src/agent/protectedFiles';

describe('agent/protectedFiles: the files the agent never writes without a click', () => {
  it('protects what the defaults name, at the root', () => {
    for (const path of [
      '.vscode/settings.json',
      '.vscode/tasks.json',
      'project.code-workspace',
      '.git/config',
      '.git/hooks/pre-commit',
      '.devcontainer/devcontainer.json',
      '.github/workflows/ci.yml',
      '.env',
      '.env.local',
      '.envrc',
    ])
      assert.ok(isProtected(path), path);
  });

  it('protects them in nested folders too (a nested workspace folder reads its own .vscode)', () => {
    for (const path of ['app/.vscode/settings.json', 'packages/web/.env.production', 'a/b/x.code-workspace'])
      assert.ok(isProtected(path), path);
  });

  it('protects the folders themselves (deleting .vscode deletes what it holds)', () => {
    assert.ok(isProtected('.vscode'));
    assert.ok(isProtected('.github/workflows'));
  });

  it('leaves ordinary files alone', () => {
    for (const path of [
      'src/app.ts',
      'README.md',
      '.github/copilot-instructions.md',
      '.github/ISSUE_TEMPLATE/bug.md',
      'vscode/settings.json',
      'docs/env.md',
      'src/.environment.ts'.replace('.environment', 'environment'),
      'my.code-workspace.md',
    ])
      assert.equal(isProtected(path), false, path);
  });

  it('ignores case, backslashes, ./ segments and the trailing dots and spaces Windows drops', () => {
    for (const path of [
      '.VSCode/Settings.json',
      '.vscode\\settings.json',
      './.vscode/./tasks.json',
      '.vscode./settings.json',
      '.vscode /settings.json',
      '.ENV',
      '.git./config',
    ])
      assert.ok(isProtected(path), path);
  });

  it('protects what cannot be placed: empty, absolute, .. and NUL paths', () => {
    for (const path of ['', '/etc/passwd', 'C:/x', 'a/../.vscode/settings.json', '../x', 'a\0b'])
      assert.ok(isProtected(path), JSON.stringify(path));
  });

  it('uses the patterns of the setting, skipping the ones that are not strings or do not compile', () => {
    const patterns = ['package.json', 'scripts/**', 42 as unknown as string, '', '[', '/Makefile'];
    assert.equal(protectingPattern('package.json', patterns), 'package.json');
    assert.equal(protectingPattern('web/package.json', patterns), 'package.json');
    assert.equal(protectingPattern('scripts/build.sh', patterns), 'scripts/**');
    assert.equal(protectingPattern('Makefile', patterns), '/Makefile');
    // A leading '/' anchors the pattern at the folder's root.
    assert.equal(protectingPattern('sub/Makefile', patterns), undefined);
    assert.equal(
      protectingPattern('.vscode/settings.json', patterns),
      undefined,
      'the setting replaces the defaults',
    );
  });

  it('property: whatever folders lead to it, a default-protected file stays protected', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/);
    const target = fc.constantFrom(
      '.vscode/settings.json',
      '.git/hooks/post-checkout',
      '.github/workflows/release.yml',
      '.env.test',
      'w.code-workspace',
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), target, fc.boolean(), (dirs, file, backslash) => {
        const path = [...dirs, file].join('/');
        return isProtected(backslash ? path.replace(/\//g, '\\') : path, DEFAULT_PROTECTED_FILES);
      }),
    );
  });
});
