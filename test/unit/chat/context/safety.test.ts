import * as assert from 'node:assert/strict';
import {
  containsSecret,
  decodeText,
  DEFAULT_CONTEXT_EXCLUDE,
  isUnsafeRelativePath,
  matchExclude,
} from '../../../../src/chat/context/safety';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('chat/context/safety', () => {
  describe('matchExclude', () => {
    const refused: Array<[string, string]> = [
      ['.env', '**/.env'],
      ['.env.local', '**/.env.*'],
      ['config/.env', '**/.env'],
      ['deploy/prod/.env.production', '**/.env.*'],
      ['a.pem', '**/*.pem'],
      ['certs/server.key', '**/*.key'],
      ['id_rsa', '**/id_rsa*'],
      ['id_rsa.pub', '**/id_rsa*'],
      ['home/.ssh/id_rsa.pub', '**/id_rsa*'],
      ['store.p12', '**/*.p12'],
      ['packages/web/.npmrc', '**/.npmrc'],
      ['.netrc', '**/.netrc'],
    ];
    for (const [path, pattern] of refused) {
      it(`refuses ${path} by default, naming ${pattern}`, () => {
        assert.equal(matchExclude(path, DEFAULT_CONTEXT_EXCLUDE), pattern);
      });
    }

    for (const path of [
      'env.ts',
      'src/env.ts',
      '.envrc.md.txt/x.ts',
      'environment/.env-example.ts',
      'keys.ts',
      'a.pem.ts',
      'npmrc',
    ]) {
      it(`lets ${path} through by default`, () => {
        assert.equal(matchExclude(path, DEFAULT_CONTEXT_EXCLUDE), undefined);
      });
    }

    it('ignores case, since macOS and Windows file systems do', () => {
      assert.equal(matchExclude('Config/.ENV', DEFAULT_CONTEXT_EXCLUDE), '**/.env');
      assert.equal(matchExclude('SERVER.PEM', DEFAULT_CONTEXT_EXCLUDE), '**/*.pem');
    });

    it('accepts backslashes and a leading ./ in the path', () => {
      assert.equal(matchExclude('config\\.env', DEFAULT_CONTEXT_EXCLUDE), '**/.env');
      assert.equal(matchExclude('./a/b.key', DEFAULT_CONTEXT_EXCLUDE), '**/*.key');
    });

    it('matches a pattern without a slash against the base name in any folder', () => {
      assert.equal(matchExclude('deep/down/secrets.json', ['secrets.json']), 'secrets.json');
      assert.equal(matchExclude('deep/down/token.txt', ['*.txt']), '*.txt');
      // With a slash the pattern is anchored at the workspace folder.
      assert.equal(matchExclude('deep/down/secrets.json', ['down/secrets.json']), undefined);
      assert.equal(matchExclude('down/secrets.json', ['down/secrets.json']), 'down/secrets.json');
    });

    it('returns the first matching pattern, in the given order', () => {
      assert.equal(matchExclude('a/.env', ['**/*.md', '**/.env*', '**/.env']), '**/.env*');
    });

    it('skips invalid and empty patterns instead of throwing', () => {
      const patterns = ['', '   ', null as unknown as string, 42 as unknown as string, '**/*.secret'];
      assert.equal(matchExclude('x/y.secret', patterns), '**/*.secret');
      assert.equal(matchExclude('x/y.txt', patterns), undefined);
      assert.doesNotThrow(() => matchExclude('a', ['[', '\\', '***', '{a,', '!(']));
    });
  });

  describe('decodeText', () => {
    it('decodes UTF-8, including astral characters', () => {
      assert.deepEqual(decodeText(utf8('héllo 😀 𝄞 你好\n')), { ok: true, text: 'héllo 😀 𝄞 你好\n' });
      assert.deepEqual(decodeText(new Uint8Array()), { ok: true, text: '' });
    });

    it('strips a UTF-8 byte order mark', () => {
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('a\r\nb')]);
      assert.deepEqual(decodeText(bytes), { ok: true, text: 'a\r\nb' });
    });

    it('refuses a NUL byte anywhere', () => {
      assert.deepEqual(decodeText(utf8('text\0more')), { ok: false, reason: 'binary' });
      const late = new Uint8Array(1_000_000).fill(0x61);
      late[999_999] = 0;
      assert.deepEqual(decodeText(late), { ok: false, reason: 'binary' });
    });

    it('refuses invalid UTF-8', () => {
      for (const bytes of [
        [0xff, 0xfe, 0x41],
        [0x61, 0xc3], // cut in the middle of a character
        [0xed, 0xa0, 0x80], // an encoded surrogate
        [0xc0, 0xaf], // an overlong encoding
        [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // a PNG signature
      ]) {
        assert.deepEqual(decodeText(new Uint8Array(bytes)), { ok: false, reason: 'binary' }, String(bytes));
      }
    });

    it('decodes a megabyte of text', () => {
      const text = 'const x = "é";\n'.repeat(70_000);
      const result = decodeText(utf8(text));
      assert.ok(result.ok && result.text === text);
    });
  });

  describe('isUnsafeRelativePath', () => {
    for (const p of [
      '',
      '  ',
      '/etc/passwd',
      '\\server\\share',
      '\\\\server\\share\\x',
      'C:\\x',
      'c:x',
      '..',
      '../a',
      'a/../../b',
      'a\\..\\b',
      'a/..',
      'a\0b',
    ]) {
      it(`refuses ${JSON.stringify(p)}`, () => assert.equal(isUnsafeRelativePath(p), true));
    }
    for (const p of ['a.ts', 'src/a.ts', 'a..b/c', '..a/b', 'a/b../c', '.env', './a', 'a b/c']) {
      it(`accepts ${JSON.stringify(p)}`, () => assert.equal(isUnsafeRelativePath(p), false));
    }
  });

  describe('containsSecret', () => {
    const key = 'sk-test-0123456789abcdef';
    it('finds the key anywhere in the text', () => {
      assert.equal(containsSecret(`API_KEY=${key}\n`, key), true);
      assert.equal(containsSecret(`API_KEY=${key.slice(0, -1)}\n`, key), false);
    });
    it('ignores a missing, empty or too short secret', () => {
      assert.equal(containsSecret('anything', undefined), false);
      assert.equal(containsSecret('anything', ''), false);
      assert.equal(containsSecret('the word abc', 'abc'), false);
      assert.equal(containsSecret('x 1234567 y', '1234567'), false);
      assert.equal(containsSecret('x 12345678 y', '12345678'), true);
    });
    it('ignores whitespace around the stored secret', () => {
      assert.equal(containsSecret(`k=${key}`, ` ${key}\n`), true);
    });
  });
});
