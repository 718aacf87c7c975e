import * as assert from 'node:assert/strict';
import { hiddenByFilesExclude } from '../../../../src/host/context/filesExclude';

describe('host/context/filesExclude', () => {
  const DEFAULTS = ['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db'];

  it('hides what a glob matches at its depth: `**` at any depth, a plain glob from the folder only', () => {
    assert.equal(hiddenByFilesExclude('a/b/.DS_Store', DEFAULTS), true);
    assert.equal(hiddenByFilesExclude('.DS_Store', DEFAULTS), true);
    assert.equal(hiddenByFilesExclude('src/notes.tmp', ['**/*.tmp']), true);
    assert.equal(hiddenByFilesExclude('notes.tmp', ['*.tmp']), true);
    assert.equal(hiddenByFilesExclude('src/notes.tmp', ['*.tmp']), false, 'as ripgrep reads /*.tmp');
    assert.equal(hiddenByFilesExclude('src/notes.ts', ['**/*.tmp', ...DEFAULTS]), false);
    assert.equal(hiddenByFilesExclude('src/notes.ts', []), false);
  });

  it('hides everything inside a hidden folder, whatever the slashes around its name', () => {
    assert.equal(hiddenByFilesExclude('out/main.js', ['out']), true);
    assert.equal(hiddenByFilesExclude('out/deep/er/main.js', ['out/']), true);
    assert.equal(hiddenByFilesExclude('out/main.js', ['/out']), true);
    assert.equal(hiddenByFilesExclude('src/out/main.js', ['out']), false, 'anchored at the folder');
    assert.equal(hiddenByFilesExclude('pkg/__pycache__/m.pyc', ['**/__pycache__']), true);
    assert.equal(hiddenByFilesExclude('output/main.js', ['out']), false, 'a whole name, not a prefix');
  });

  it('reads braces and Windows separators in a glob as VS Code does', () => {
    assert.equal(hiddenByFilesExclude('dist/a.js', ['{dist,build}']), true);
    assert.equal(hiddenByFilesExclude('build/a.js', ['{dist,build}']), true);
    assert.equal(hiddenByFilesExclude('gen/x/y.ts', ['gen\\x']), true);
  });
});
