import * as assert from 'node:assert/strict';
import { anchoredGlob, listedPath, ripgrepFileListArgs } from '../../../../src/host/context/fileListArgs';

describe('host/context/fileListArgs', () => {
  it("lists as findFiles does: hidden files, no ignore files, no user config, tools' folders not walked", () => {
    assert.deepEqual(ripgrepFileListArgs({ excludes: [], followSymlinks: false }), [
      '--files',
      '--hidden',
      '--no-ignore',
      '--no-config',
      '--glob',
      '!**/node_modules',
      '--glob',
      '!**/.git',
      '--glob',
      '!**/.hg',
      '--glob',
      '!**/.svn',
    ]);
  });

  it('applies files.exclude as anchored globs and follows links only when search.followSymlinks is on', () => {
    const args = ripgrepFileListArgs({ excludes: ['**/.DS_Store', 'build', 'out/'], followSymlinks: true });
    assert.deepEqual(args.slice(12), [
      '--glob',
      '!**/.DS_Store',
      '--glob',
      '!/build',
      '--glob',
      '!/out',
      '--follow',
    ]);
  });

  it("anchors a glob to the folder as VS Code matches it (ripgrep would match 'build' at any depth)", () => {
    assert.equal(anchoredGlob('build'), '/build');
    assert.equal(anchoredGlob('src/*.gen.ts'), '/src/*.gen.ts');
    assert.equal(anchoredGlob('**/*.log'), '**/*.log');
    assert.equal(anchoredGlob('/dist'), '/dist');
    assert.equal(anchoredGlob('docs\\drafts\\'), '/docs/drafts');
  });

  it('names a listed line as the index does, in one folder and in a multi-root workspace', () => {
    assert.equal(listedPath('src/a b#1.ts', '', false), 'src/a b#1.ts');
    assert.equal(listedPath('./src/a.ts', '', false), 'src/a.ts');
    assert.equal(listedPath('src/a.ts', 'api/', false), 'api/src/a.ts');
    assert.equal(listedPath('src\\win\\a.ts', 'web/', true), 'web/src/win/a.ts');
    assert.equal(
      listedPath('odd\\name.ts', '', false),
      'odd\\name.ts',
      'a backslash is part of a POSIX name',
    );
  });
});
