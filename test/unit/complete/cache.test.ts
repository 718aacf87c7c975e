import * as assert from 'node:assert/strict';
import { SuggestionCache } from '../../../src/complete/cache';

const doc = 'file:///w/a.ts';

describe('complete/cache', () => {
  it('serves the rest of a suggestion while the user types through it, across lines', () => {
    const cache = new SuggestionCache();
    const before = 'function f() {\n  ';
    cache.put({ document: doc, offset: before.length, before, after: '\n}' }, 'if (a) {\n    b();\n  }');
    const typed = (t: string): string | undefined =>
      cache.get({ document: doc, offset: before.length + t.length, before: before + t, after: '\n}' });
    assert.equal(typed(''), 'if (a) {\n    b();\n  }');
    assert.equal(typed('if'), ' (a) {\n    b();\n  }');
    assert.equal(typed('if (a) {\n    b'), '();\n  }');
    assert.equal(typed('if (a) {\n    b();\n  }'), '');
    assert.equal(typed('if (b'), undefined, 'typing something else misses');
  });

  it('serves a suggestion again when the user comes back to the same place', () => {
    const cache = new SuggestionCache();
    cache.put({ document: doc, offset: 4, before: 'abc ', after: '' }, 'def');
    assert.equal(cache.get({ document: doc, offset: 5, before: 'abc x', after: '' }), undefined);
    assert.equal(cache.get({ document: doc, offset: 4, before: 'abc ', after: '' }), 'def');
  });

  it('misses in another document, after the text after the cursor changed, or before the place', () => {
    const cache = new SuggestionCache();
    cache.put({ document: doc, offset: 4, before: 'abc ', after: ')' }, 'def');
    assert.equal(cache.get({ document: 'file:///w/b.ts', offset: 4, before: 'abc ', after: ')' }), undefined);
    assert.equal(cache.get({ document: doc, offset: 4, before: 'abc ', after: '];' }), undefined);
    assert.equal(cache.get({ document: doc, offset: 3, before: 'abc', after: ')' }), undefined);
    assert.equal(cache.get({ document: doc, offset: 4, before: 'xyz ', after: ')' }), undefined);
  });

  it('compares fixed-length windows: a shifted tail still matches', () => {
    const cache = new SuggestionCache();
    const window = (s: string): string => s.slice(-10);
    const text = '0123456789abcdef';
    cache.put({ document: doc, offset: 16, before: window(text), after: '' }, 'XYZ');
    assert.equal(cache.get({ document: doc, offset: 18, before: window(text + 'XY'), after: '' }), 'Z');
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
