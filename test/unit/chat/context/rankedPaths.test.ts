import * as assert from 'node:assert/strict';
import { rankPaths } from '../../../../src/chat/context/fuzzy';
import { RankedPaths } from '../../../../src/chat/context/rankedPaths';
import { workspacePaths } from '../../../bench/contextWorkspace';

const QUERIES = ['invoiceServ', 'usr', 'api/order', 'billing pay', 'web cart list', 'zzzz', ''];

describe('chat/context/rankedPaths', () => {
  const paths = workspacePaths(6000);

  it('added in slices ranks exactly as the whole list prepared at once', () => {
    const ranked = new RankedPaths();
    for (let start = 0; start < paths.length; start += 700) ranked.add(paths.slice(start, start + 700));
    assert.equal(ranked.size, paths.length);
    for (const query of QUERIES)
      assert.deepEqual(ranked.search(query, 20), rankPaths(query, paths, 20), query);
  });

  it('keeps a path added twice once, in its first place; forgets removed paths and, when cleared, all', () => {
    const ranked = new RankedPaths();
    ranked.add(paths.slice(0, 100));
    ranked.add([paths[5], paths[0]]);
    assert.equal(ranked.size, 100);
    assert.deepEqual(ranked.search('', 3), paths.slice(0, 3));
    ranked.remove([paths[1], 'not/held.ts']);
    assert.deepEqual(ranked.search('', 3), [paths[0], paths[2], paths[3]]);
    const rest = paths.slice(0, 100).filter((p) => p !== paths[1]);
    for (const query of QUERIES)
      assert.deepEqual(ranked.search(query, 10), rankPaths(query, rest, 10), query);
    ranked.clear();
    assert.equal(ranked.size, 0);
    assert.deepEqual(ranked.search('invoice', 10), []);
  });
});
