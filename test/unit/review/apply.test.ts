import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  blockTarget,
  checkMerge,
  findQuote,
  isWholeFile,
  matchFinalNewline,
  targetFromComment,
  targetFromInfo,
  withoutNameComment,
} from '../../../src/review/apply';

const lines = (n: number, prefix = 'line'): string =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1};\n`).join('');

describe('apply: the target a block names', () => {
  it('reads the path after the language in the info string', () => {
    assert.equal(targetFromInfo('ts src/a.ts'), 'src/a.ts');
    assert.equal(targetFromInfo('python title="app/main.py"'), 'app/main.py');
    assert.equal(targetFromInfo('js file=lib/x.js {1-3}'), 'lib/x.js');
    assert.equal(targetFromInfo('ts:src/a.ts'), 'src/a.ts');
    assert.equal(targetFromInfo('.env'), undefined, 'a lone word is the language');
  });

  it('ignores info strings without a path', () => {
    for (const info of ['ts', '', 'python 3.12', 'js {1,3}', 'ts https://x.test/a.ts', 'sh e.g.'])
      assert.equal(targetFromInfo(info), undefined, info);
  });

  it('reads a path from the first comment line in the usual syntaxes', () => {
    assert.equal(targetFromComment('// src/a.ts\nconst a = 1;'), 'src/a.ts');
    assert.equal(targetFromComment('\n# File: app/main.py\nprint(1)'), 'app/main.py');
    assert.equal(targetFromComment('<!-- index.html -->\n<p>'), 'index.html');
    assert.equal(targetFromComment('/* styles/site.css */\nbody {}'), 'styles/site.css');
    assert.equal(targetFromComment('-- db/schema.sql\nselect 1;'), 'db/schema.sql');
    assert.equal(targetFromComment('// filename: util.go\r\npackage x'), 'util.go');
  });

  it('does not take prose, shebangs, versions or later comments for a path', () => {
    for (const code of [
      '// Compute the total\nx()',
      '#!/bin/sh\necho',
      '# v1.2\n',
      'const a = 1; // a.ts',
      'x()\n// src/a.ts',
      '// see https://x.test/a.ts',
      '// ...',
    ])
      assert.equal(targetFromComment(code), undefined, code);
  });

  it('prefers the info string to the comment', () => {
    assert.equal(blockTarget('ts src/a.ts', '// src/b.ts\n'), 'src/a.ts');
    assert.equal(blockTarget('ts', '// src/b.ts\n'), 'src/b.ts');
    assert.equal(blockTarget('ts', 'x'), undefined);
  });

  it('drops a naming comment unless the file starts with the same line', () => {
    assert.equal(withoutNameComment('// src/a.ts\nconst a = 1;\n', 'let b;\n'), 'const a = 1;\n');
    assert.equal(
      withoutNameComment('// src/a.ts\nconst a = 1;\n', '// src/a.ts\nlet b;\n'),
      '// src/a.ts\nconst a = 1;\n',
    );
    assert.equal(withoutNameComment('// Explain\nx\n', ''), '// Explain\nx\n');
  });
});

describe('apply: whole new file or fragment', () => {
  const file = `import x from 'x';\n${lines(20)}export default x;\n`;

  it('takes a block with the same first and last lines and a similar length as the whole file', () => {
    const block = file.replace('line 5;', 'line five;').replace('line 9;\n', '');
    assert.equal(isWholeFile(file, block), true);
  });

  it('takes any non-empty block for an empty file', () => {
    assert.equal(isWholeFile('', 'a\n'), true);
    assert.equal(isWholeFile('\n\n', 'a\n'), true);
    assert.equal(isWholeFile('', '\n'), false);
  });

  it('treats a block as a fragment when an end differs, the length differs a lot, or code is left out', () => {
    assert.equal(isWholeFile(file, file.replace("import x from 'x';", "import y from 'y';")), false);
    assert.equal(isWholeFile(file, file.replace('export default x;', 'export { x };')), false);
    assert.equal(isWholeFile(file, `import x from 'x';\nline 1;\nexport default x;\n`), false);
    assert.equal(isWholeFile(file, `import x from 'x';\n${lines(50)}export default x;\n`), false);
    for (const marker of ['// ... existing code ...', '  // …', '# rest of the file unchanged', '...'])
      assert.equal(isWholeFile(file, file.replace('line 7;', marker)), false, marker);
  });
});

describe('apply: finding a quoted selection', () => {
  const text = 'a\nb\nc\nb\n';
  it('finds the quote at its line, else a unique match', () => {
    assert.deepEqual(findQuote(text, 'b\n', 4), { offset: 6, length: 2 });
    assert.deepEqual(findQuote(text, 'c\n', 1), { offset: 4, length: 2 });
    assert.equal(findQuote(text, 'b\n', 1), undefined, 'moved and ambiguous');
    assert.equal(findQuote(text, 'z\n', 1), undefined);
    assert.equal(findQuote(text, '  ', 1), undefined);
  });
});

describe('apply: checking a merge', () => {
  const file = lines(60);

  it('accepts a merge that changes, adds or replaces code where the block goes', () => {
    assert.deepEqual(checkMerge(file, file.replace('line 30;', 'line thirty;\nextra;')), { ok: true });
    // A 20-line function replaced by a 3-line one: it removes a lot, but adds in the same place.
    const shrunk = file.replace(lines(30).slice(lines(10).length), 'a();\nb();\nc();\n');
    assert.deepEqual(checkMerge(file, shrunk), { ok: true });
    // A few unrelated lines dropped stay below the limit.
    assert.deepEqual(checkMerge(file, file.replace('line 2;\nline 3;\n', '')), { ok: true });
  });

  it('refuses a merge that drops a large region it adds nothing to', () => {
    const dropped = file.split('\n').slice(30).join('\n'); // lines 31..60 only
    const result = checkMerge(file, dropped.replace('line 45;', 'line forty-five;'));
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /removes lines 1–30 of the file/);
  });

  it('refuses a merge that keeps fewer than half of a large file, or nothing, or a placeholder', () => {
    const replaced = checkMerge(file, lines(20, 'new'));
    assert.equal(replaced.ok, false);
    assert.equal(checkMerge(file, ' \n').ok, false);
    const lazy = checkMerge(file, file.replace('line 40;', '// ... existing code ...'));
    assert.match(!lazy.ok ? lazy.reason : '', /placeholder/);
    // A placeholder-like line the file already had is not the model's.
    const had = `// ... existing code ...\n${file}`;
    assert.deepEqual(checkMerge(had, had.replace('line 3;', 'line three;')), { ok: true });
  });

  it('never refuses a merge that only adds lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 12 }).map((s) => s.replace(/\n/g, '')),
          { maxLength: 40 },
        ),
        fc.array(fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 })), { maxLength: 10 }),
        (fileLines, inserts) => {
          const original = fileLines.map((l, i) => `${i}:${l}\n`);
          const merged = [...original];
          for (const [at, text] of inserts)
            merged.splice(at % (merged.length + 1), 0, `+${text.replace(/[\n.…]/g, '')}\n`);
          return checkMerge(original.join(''), merged.join('') || 'x\n').ok;
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives the merged text the final newline of the file', () => {
    assert.equal(matchFinalNewline('a\n', 'b'), 'b\n');
    assert.equal(matchFinalNewline('a', 'b\n\n'), 'b');
    assert.equal(matchFinalNewline('a\r\n', 'b\r\nc'), 'b\r\nc\r\n');
  });
});
