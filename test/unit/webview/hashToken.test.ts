/** The composer's `#` token: where it is, and whether the context picker opens for it (issue 25, finding 2). */
import * as assert from 'node:assert/strict';
import { canBeContextItem, contextRequest, hashToken } from '../../../src/webview/hashToken';

/** The token at the end of `text` (the caret after the last character). */
const atEnd = (text: string): ReturnType<typeof hashToken> => hashToken(text, text.length);
const requestAtEnd = (text: string): ReturnType<typeof contextRequest> => contextRequest(text, text.length);

describe('webview # token', () => {
  it('finds the token before the caret with its mode and query', () => {
    assert.deepEqual(atEnd('#'), { start: 0, mode: 'all', query: '' });
    assert.deepEqual(atEnd('Look at #fi'), { start: 8, mode: 'all', query: 'fi' });
    assert.deepEqual(atEnd('see #file:sam'), { start: 4, mode: 'files', query: 'sam' });
    assert.deepEqual(atEnd('#sym:add'), { start: 0, mode: 'symbols', query: 'add' });
    assert.deepEqual(hashToken('#sel and more', 4), { start: 0, mode: 'all', query: 'sel' });
  });

  it('is no token where # does not start a word or is followed by a space', () => {
    for (const text of [
      'C#',
      'I write C#',
      'http://x/y#top',
      '# Heading',
      '## Title',
      '#include <x>',
      'a #b c',
    ])
      assert.equal(atEnd(text), undefined, text);
  });

  it('opens the picker for what can name a context item', () => {
    for (const text of [
      '#',
      'Look at #',
      '#fi',
      '#sel',
      '#alpha',
      '#.env',
      '#_config',
      '#@types',
      '#src/a.ts',
      '#huge',
      '#e2e', // a folder as often as a colour: the picker's own answer decides
      '#fff',
      '#add',
      '#include',
      '#2024-report',
      '#file:',
      '#file:42',
      '#sym:7f3a',
      '#Ünïcode',
    ])
      assert.ok(requestAtEnd(text), text);
  });

  it('keeps the picker closed for issue numbers, colours and code', () => {
    for (const text of [
      'Fix issue #42',
      '#1',
      'use colour #7f3a',
      '#0af',
      '#1e1e1e',
      '#ff00aa',
      '#abc123cc',
      '#!/bin/bash',
      '#[derive(Debug)]',
      '#{name}',
      '#(x)',
      '#<tag>',
      '#"quoted"',
      '#=',
    ])
      assert.equal(requestAtEnd(text), undefined, text);
  });

  it('canBeContextItem judges only the text after #, whatever came before', () => {
    assert.equal(canBeContextItem({ start: 10, mode: 'all', query: '42' }), false);
    assert.equal(canBeContextItem({ start: 0, mode: 'all', query: 'sample' }), true);
    assert.equal(canBeContextItem({ start: 0, mode: 'files', query: '42' }), true);
  });
});
