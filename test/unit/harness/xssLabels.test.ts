// The XSS suites check every vector on its own: a vector whose text vanished fails even when another
// vector shows the same generic marker (`__xss`).
import * as assert from 'node:assert/strict';
import { labelledAnswer, unshownVectors, vectorLabel } from '../../webview/xssCorpus';

describe('XSS vectors: one visible label and marker per vector', () => {
  const vectors = ['<b>__xss</b>', '<i>__xss</i>', '[x](https://ok.example/__xss)'].map(
    (markdown, index) => ({
      vector: { markdown, ...(index === 2 ? { shows: null } : {}) },
      index,
    }),
  );

  it('labels are distinct, fixed-width and never inside one another', () => {
    const labels = Array.from({ length: 300 }, (_, i) => vectorLabel(i));
    assert.equal(new Set(labels).size, 300);
    for (const a of labels.slice(0, 20)) for (const b of labels) if (a !== b) assert.ok(!b.includes(a));
  });

  it('passes when each vector shows its own marker after its own label', () => {
    const shown = labelledAnswer(vectors).replace(/\n/g, '');
    assert.deepEqual(unshownVectors(vectors, shown), []);
  });

  it('fails the vector whose marker vanished although a neighbour shows the same marker', () => {
    const shown = `${vectorLabel(0)}<b>__xss</b>${vectorLabel(1)}<i></i>${vectorLabel(2)}x`;
    assert.deepEqual(unshownVectors(vectors, shown), [`${vectorLabel(1)} lost "__xss": <i>__xss</i>`]);
  });

  it('fails a vector whose label is missing, even when nothing specific must show', () => {
    const shown = `${vectorLabel(0)}<b>__xss</b>${vectorLabel(1)}<i>__xss</i>`;
    assert.equal(unshownVectors(vectors, shown).length, 1);
    assert.match(unshownVectors(vectors, shown)[0], /XSSV0002X not shown once/);
  });
});
