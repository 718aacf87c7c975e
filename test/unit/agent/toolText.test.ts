import * as assert from 'node:assert/strict';
import {
  countNote,
  formatPathList,
  formatTextMatches,
  pageHeader,
  pageOfText,
  refusalText,
} from '../../../src/agent/toolText';

const numbered = (n: number, eol = '\n'): string =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');

describe('agent/toolText: what the read-only tools tell the model', () => {
  describe('pageOfText', () => {
    it('returns a short file whole, with its line count and no next page', () => {
      const page = pageOfText(numbered(3), { complete: true });
      assert.deepEqual(page, { text: numbered(3), startLine: 1, endLine: 3, totalLines: 3 });
      assert.equal(pageHeader('a.ts', page), 'a.ts: lines 1-3 of 3.');
    });

    it('pages a long file by 400 lines and says where the next page starts', () => {
      const text = numbered(2310);
      const first = pageOfText(text, { complete: true });
      assert.equal(first.endLine, 400);
      assert.equal(first.nextStartLine, 401);
      assert.equal(first.text, numbered(400));
      assert.equal(
        pageHeader('src/big.ts', first),
        'src/big.ts: lines 1-400 of 2,310; call read_file with startLine 401 for more.',
      );
      const last = pageOfText(text, { startLine: 2201, complete: true });
      assert.equal(last.endLine, 2310);
      assert.equal(last.nextStartLine, undefined);
      assert.ok(last.text.startsWith('line 2201\n') && last.text.endsWith('line 2310\n'));
    });

    it('honours endLine, and keeps CRLF line breaks as they are', () => {
      const page = pageOfText(numbered(10, '\r\n'), { startLine: 3, endLine: 4, complete: true });
      assert.equal(page.text, 'line 3\r\nline 4\r\n');
      assert.equal(page.nextStartLine, 5);
    });

    it('ends a page of long lines at the token limit', () => {
      const wide = Array.from({ length: 100 }, () => `${'x'.repeat(800)}\n`).join('');
      const page = pageOfText(wide, { complete: true });
      // 800 ASCII characters and a break are about 201 tokens: 39 lines fit in 8,000.
      assert.equal(page.endLine, 39);
      assert.equal(page.nextStartLine, 40);
    });

    it('cuts a single line that is over the limit on its own, and says so', () => {
      const page = pageOfText(`${'y'.repeat(100_000)}\nnext\n`, { complete: true });
      assert.equal(page.text.length, 16_000);
      assert.equal(page.cutLineAt, 16_000);
      assert.match(
        pageHeader('min.js', page),
        /line 1 is cut after 16,000 characters; call read_file with startLine 2/,
      );
    });

    it('past the end: an empty page that says how long the file is', () => {
      const page = pageOfText(numbered(5), { startLine: 9, complete: true });
      assert.equal(page.text, '');
      assert.equal(pageHeader('a.ts', page), 'a.ts: no lines from 9 (the file has 5 lines).');
    });

    it('on the start of a huge file, drops the partial last line and always offers the next page', () => {
      const page = pageOfText('one\ntwo\nthr', { complete: false }, { lines: 400, tokens: 8000 });
      assert.equal(page.text, 'one\ntwo\n');
      assert.equal(page.totalLines, undefined);
      assert.equal(page.nextStartLine, 3);
      assert.equal(
        pageHeader('huge.log', page, 300 * 1048576),
        'huge.log: lines 1-2 of a 300 MB file (line count not read); call read_file with startLine 3 for more.',
      );
    });
  });

  it('counts what it shows: "first 50 of 312", "of 10,000+" when counting stopped', () => {
    assert.equal(countNote(50, 312), 'first 50 of 312');
    assert.equal(countNote(7, 7), '7');
    assert.equal(countNote(50, 10_000, true), 'first 50 of 10,000+');
  });

  it('formats search hits as path:line: text, cutting long lines', () => {
    const text = formatTextMatches(
      'parseConfig',
      [
        { path: 'src/a.ts', line: 3, text: '  export function parseConfig() {\n' },
        { path: 'src/b.ts', line: 9, text: `${'z'.repeat(400)}\n` },
      ],
      312,
    );
    const [head, first, second] = text.split('\n');
    assert.equal(
      head,
      'Matches for "parseConfig": first 2 of 312. Narrow the query or pass a glob to see the rest.',
    );
    assert.equal(first, 'src/a.ts:3: export function parseConfig() {');
    assert.equal(second, `src/b.ts:9: ${'z'.repeat(300)}…`);
    assert.equal(formatTextMatches('nope', [], 0), 'No matches for "nope".');
  });

  it('formats a path list with its count, or the empty text', () => {
    assert.equal(formatPathList('Files matching *.ts', ['a.ts'], 1, 'none'), 'Files matching *.ts: 1.\na.ts');
    assert.equal(formatPathList('Files', [], 0, 'No files.'), 'No files.');
  });

  it('words every refusal so the model knows what to do instead', () => {
    assert.match(refusalText('../x', { kind: 'unsafePath' }), /relative to the workspace root/);
    assert.match(refusalText('.env', { kind: 'excluded', pattern: '**/.env' }), /"\*\*\/\.env".*never read/);
    assert.match(refusalText('logo.png', { kind: 'binary' }), /binary file/);
    assert.match(refusalText('nope.ts', { kind: 'notFound' }), /list_dir or find_files/);
    assert.match(refusalText('src', { kind: 'isFolder' }), /list_dir/);
    assert.match(
      refusalText('link', { kind: 'linkOut', target: '/etc' }),
      /symbolic link that leads outside/,
    );
  });
});
