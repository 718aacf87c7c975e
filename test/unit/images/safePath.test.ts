import * as assert from 'node:assert/strict';
import { isInside, resolveInsideWorkspace } from '../../../src/images/safePath';

const ROOT = '/home/me/project';
const WIN_ROOT = 'c:\\Users\\me\\project';

function ok(root: string, setting: string): string[] {
  const result = resolveInsideWorkspace(root, setting);
  assert.ok(result.ok, `expected "${setting}" to be accepted, got ${JSON.stringify(result)}`);
  return result.segments;
}

function refused(root: string, setting: string, reason?: RegExp): void {
  const result = resolveInsideWorkspace(root, setting);
  assert.equal(result.ok, false, `expected "${JSON.stringify(setting)}" to be refused`);
  if (!result.ok && reason) assert.match(result.reason, reason);
}

describe('images/safePath resolveInsideWorkspace', () => {
  it('accepts relative folders and normalises them', () => {
    assert.deepEqual(ok(ROOT, 'images'), ['images']);
    assert.deepEqual(ok(ROOT, 'assets/generated/'), ['assets', 'generated']);
    assert.deepEqual(ok(ROOT, './assets/./img'), ['assets', 'img']);
    assert.deepEqual(ok(ROOT, 'a/../b'), ['b']);
    assert.deepEqual(ok(ROOT, 'assets\\img'), ['assets', 'img']);
    assert.deepEqual(ok(ROOT, '  images  '), ['images']);
    assert.deepEqual(ok(ROOT, '${workspaceFolder}/media/ai'), ['media', 'ai']);
    assert.deepEqual(ok(ROOT, '${workspaceFolder}'), []);
    assert.deepEqual(ok(ROOT, ''), []);
    assert.deepEqual(ok(ROOT, '.'), []);
    assert.deepEqual(ok(ROOT, 'Ünïcödé 画像'), ['Ünïcödé 画像']);
  });

  it('refuses .. that leaves the workspace', () => {
    refused(ROOT, '..', /outside the workspace/);
    refused(ROOT, '../x', /outside the workspace/);
    refused(ROOT, 'a/../../b', /outside the workspace/);
    refused(ROOT, 'a\\..\\..\\b', /outside the workspace/);
    refused(ROOT, '${workspaceFolder}/../x', /outside the workspace/);
    refused(ROOT, './../project/images', /outside the workspace/);
  });

  it('accepts an absolute path inside the root, refuses one outside', () => {
    assert.deepEqual(ok(ROOT, '/home/me/project/assets/img'), ['assets', 'img']);
    assert.deepEqual(ok(ROOT, '/home/me/project'), []);
    assert.deepEqual(ok(ROOT, '/home/me/project/a/../b/'), ['b']);
    refused(ROOT, '/etc', /outside the workspace/);
    refused(ROOT, '/home/me/project-other/img', /outside the workspace/);
    refused(ROOT, '/home/me/project/../other', /outside the workspace/);
    refused(ROOT, '/home/me/PROJECT/img', /outside the workspace/);
  });

  it('refuses Windows drive letters, UNC and device paths outside a POSIX root', () => {
    refused(ROOT, 'C:\\x', /outside the workspace/);
    refused(ROOT, 'C:/x');
    refused(ROOT, 'C:x', /drive/);
    refused(ROOT, '\\\\server\\share', /outside the workspace/);
    refused(ROOT, '//server/share/x');
    refused(ROOT, '\\\\?\\C:\\x');
    refused(ROOT, '\\x');
  });

  it('handles a Windows root case-insensitively, including device paths', () => {
    assert.deepEqual(ok(WIN_ROOT, 'C:\\Users\\Me\\Project\\img'), ['img']);
    assert.deepEqual(ok(WIN_ROOT, 'c:/users/me/project/a/b'), ['a', 'b']);
    assert.deepEqual(ok(WIN_ROOT, '\\\\?\\C:\\Users\\me\\project\\img'), ['img']);
    refused(WIN_ROOT, 'D:\\Users\\me\\project\\img', /outside/);
    refused(WIN_ROOT, 'C:\\Users\\me\\projectx', /outside/);
    refused(WIN_ROOT, '\\\\server\\share\\img', /outside/);
    refused(WIN_ROOT, '/Users/me/project', /outside/);
    assert.deepEqual(ok('\\\\nas\\team\\repo', '\\\\NAS\\team\\repo\\img'), ['img']);
  });

  it('refuses NUL bytes, control characters, empty segments and Windows traps', () => {
    refused(ROOT, 'images\0/x', /NUL/);
    refused(ROOT, 'im\x07ages', /control character/);
    refused(ROOT, 'a//b', /empty path segment/);
    refused(ROOT, 'con', /reserved device name/);
    refused(ROOT, 'assets/NUL.png', /reserved/);
    refused(ROOT, 'lpt1/x', /reserved/);
    refused(ROOT, 'COM¹', /reserved/);
    refused(ROOT, 'images.', /dot or space/);
    refused(ROOT, 'images /x', /dot or space/);
    refused(ROOT, 'img:stream', /Windows does not allow/);
    refused(ROOT, 'a*b', /Windows does not allow/);
    refused(ROOT, '~/Pictures', /not expanded/);
    refused(ROOT, 'x'.repeat(256), /255/);
    refused(ROOT, '/home/me/project/con', /reserved/);
    assert.deepEqual(ok(ROOT, 'console/connect'), ['console', 'connect']);
  });
});

describe('images/safePath isInside', () => {
  it('compares real paths on segment boundaries', () => {
    assert.equal(isInside('/home/me/project', '/home/me/project'), true);
    assert.equal(isInside('/home/me/project', '/home/me/project/img/a.png'), true);
    assert.equal(isInside('/home/me/project/', '/home/me/project/img'), true);
    assert.equal(isInside('/home/me/project', '/home/me/project2/img'), false);
    assert.equal(isInside('/home/me/project', '/home/me'), false);
    assert.equal(isInside('/home/me/project', '/tmp/evil'), false);
    assert.equal(isInside('/home/me/project', 'relative/path'), false);
    assert.equal(isInside('C:\\Work\\Repo', 'c:\\work\\repo\\img'), true);
    assert.equal(isInside('C:\\Work\\Repo', 'D:\\work\\repo\\img'), false);
    assert.equal(isInside('/home/me/project', '/home/me/project/\0'), false);
  });
});
