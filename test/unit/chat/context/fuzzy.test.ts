import * as assert from 'node:assert/strict';
import {
  prepareIndex,
  prepareIndexInChunks,
  rankPaths,
  rankPrepared,
} from '../../../../src/chat/context/fuzzy';

// No q, k, z, x or j in these words, so the planted paths below are the only ones with those letters.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'widget', 'service', 'model', 'view', 'store', 'parser'];
const MORE = ['client', 'utils', 'config', 'router', 'handler', 'schema', 'types', 'button', 'panel', 'main'];
const VOCABULARY = [...WORDS, ...MORE];
const EXTENSIONS = ['ts', 'js', 'md', 'json', 'css'];

/** A deterministic workspace of `count` paths, 1–4 folders deep. */
function generatePaths(count: number): string[] {
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const word = (): string => VOCABULARY[next(VOCABULARY.length)];
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const folders = Array.from({ length: 1 + next(4) }, word);
    const second = word();
    const name = `${word()}${second[0].toUpperCase()}${second.slice(1)}${i}`;
    paths.push(`${folders.join('/')}/${name}.${EXTENSIONS[next(EXTENSIONS.length)]}`);
  }
  return paths;
}

const PLANTED = [
  'lib/quokka/readme.md',
  'lib/misc/quokka.ts',
  'src/chat/context/fuzzy.ts',
  'src/chat/context/format.ts',
  'test/unit/jumboJet.test.ts',
  'docs/quokkaZone.md',
];

describe('chat/context/fuzzy', () => {
  const paths = generatePaths(50_000);
  // Planted among the generated paths, not at the start, so order of input cannot explain a result.
  paths.splice(20_000, 0, ...PLANTED.slice(0, 3));
  paths.splice(40_000, 0, ...PLANTED.slice(3));
  const index = prepareIndex(paths);

  it('generates a 50,000-path workspace with the planted paths', () => {
    assert.equal(paths.length, 50_000 + PLANTED.length);
    assert.equal(new Set(paths).size, paths.length);
  });

  it('ranks a match in the base name above one only in the folders', () => {
    assert.deepEqual(rankPrepared('quokka', index, 3), [
      'lib/misc/quokka.ts',
      'docs/quokkaZone.md',
      'lib/quokka/readme.md',
    ]);
  });

  it('finds an exact file name first, ignoring case', () => {
    assert.equal(rankPrepared('jumboJet.test.ts', index, 5)[0], 'test/unit/jumboJet.test.ts');
    assert.equal(rankPrepared('JUMBOJET', index, 5)[0], 'test/unit/jumboJet.test.ts');
  });

  it('matches abbreviations in order', () => {
    assert.deepEqual(rankPrepared('qkzn', index, 10), ['docs/quokkaZone.md']);
    assert.deepEqual(rankPrepared('jmbj', index, 10), ['test/unit/jumboJet.test.ts']);
  });

  it('matches a query with folders against the whole path', () => {
    const top = rankPrepared('chat/context/fu', index, 5);
    assert.equal(top[0], 'src/chat/context/fuzzy.ts');
    assert.ok(!top.slice(1).includes('src/chat/context/fuzzy.ts'));
  });

  it('matches words separated by spaces in any order', () => {
    assert.equal(rankPrepared('fuzzy context', index, 5)[0], 'src/chat/context/fuzzy.ts');
    assert.equal(rankPrepared('context fuzzy', index, 5)[0], 'src/chat/context/fuzzy.ts');
  });

  it('accepts backslashes in the query', () => {
    assert.equal(rankPrepared('chat\\context\\fuz', index, 1)[0], 'src/chat/context/fuzzy.ts');
  });

  it('ranks generated names by how well they match', () => {
    const target = paths[31_337];
    const name = target.slice(target.lastIndexOf('/') + 1);
    assert.equal(rankPrepared(name, index, 10)[0], target);
    for (const hit of rankPrepared('widgetModel', index, 20))
      assert.match(hit, /w.*i.*d.*g.*e.*t.*m.*o.*d.*e.*l/i);
  });

  it('respects the limit and returns nothing for no match', () => {
    assert.equal(rankPrepared('a', index, 7).length, 7);
    assert.deepEqual(rankPrepared('a', index, 0), []);
    assert.deepEqual(rankPrepared('qqqqqq', index, 10), []);
  });

  it('gives the first paths in the given order for an empty query', () => {
    assert.deepEqual(rankPrepared('', index, 4), paths.slice(0, 4));
    assert.deepEqual(rankPrepared('   ', index, 2), paths.slice(0, 2));
  });

  it('ranks an unprepared list the same way', () => {
    const small = ['b/quokka/x.ts', 'a/quokka.ts', 'c/other.ts'];
    assert.deepEqual(rankPaths('quokka', small, 10), ['a/quokka.ts', 'b/quokka/x.ts']);
    assert.deepEqual(rankPaths('', small, 2), small.slice(0, 2));
  });

  it('prepares in chunks with a pause between them, to the same index', async () => {
    let pauses = 0;
    const chunked = await prepareIndexInChunks(paths.slice(0, 5000), 1000, async () => {
      pauses++;
    });
    assert.equal(pauses, 4);
    assert.equal(chunked.entries.length, 5000);
    const whole = prepareIndex(paths.slice(0, 5000));
    assert.deepEqual(rankPrepared('widgetModel', chunked, 10), rankPrepared('widgetModel', whole, 10));
  });
});
