import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  NO_CHOICE,
  TOOL_SOURCES,
  isToolEnabled,
  readToolChoice,
  shortDescription,
  toolChoiceEntries,
  withToolEnabled,
  type ToolChoice,
  type ToolSource,
} from '../../../src/agent/toolChoice';

const source = fc.constantFrom<ToolSource>(...TOOL_SOURCES);
const name = fc.stringMatching(/^[a-z][a-z0-9_.]{0,20}$/);

describe('agent/toolChoice: the Tools picker choice, per workspace', () => {
  it('offers built-in and MCP tools by default, and VS Code tools only when turned on', () => {
    assert.equal(isToolEnabled(NO_CHOICE, 'read_file', 'builtin'), true);
    assert.equal(isToolEnabled(NO_CHOICE, 'fixture.echo', 'mcp'), true);
    assert.equal(isToolEnabled(NO_CHOICE, 'getWeather', 'vscode'), false);
  });

  it('a tool set on or off reads back as set, and setting it back to its default stores nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, source, fc.boolean())),
        name,
        source,
        fc.boolean(),
        (steps, n, s, on) => {
          let choice: ToolChoice = NO_CHOICE;
          for (const [a, b, c] of steps) choice = withToolEnabled(choice, a, b, c);
          const after = withToolEnabled(choice, n, s, on);
          assert.equal(isToolEnabled(after, n, s), on);
          // Only departures from the default are kept, and a name is never listed twice.
          const back = withToolEnabled(after, n, s, s !== 'vscode');
          assert.ok(!back.on.includes(n) && !back.off.includes(n));
          assert.equal(new Set([...after.on, ...after.off]).size, after.on.length + after.off.length);
          // Other tools keep their state.
          for (const [a, b] of steps)
            if (a !== n) assert.equal(isToolEnabled(after, a, b), isToolEnabled(choice, a, b));
        },
      ),
    );
  });

  it('reads a stored choice, and treats anything else as none', () => {
    assert.deepEqual(readToolChoice({ on: ['getWeather'], off: ['read_file'] }), {
      on: ['getWeather'],
      off: ['read_file'],
    });
    for (const bad of [undefined, null, 'on', 42, [], { on: 'x' }])
      assert.deepEqual(readToolChoice(bad), NO_CHOICE, JSON.stringify(bad));
    // Entries that are not names are dropped, the rest kept.
    assert.deepEqual(readToolChoice({ on: ['a', 3, '', null, 'b'] }), { on: ['a', 'b'], off: [] });
    assert.equal(readToolChoice({ off: Array.from({ length: 2000 }, (_, i) => `t${i}`) }).off.length, 500);
  });

  it('lists built-in tools in their own order, then MCP and VS Code tools by name, each with its state', () => {
    const entries = toolChoiceEntries(
      [
        { name: 'zeta.tool', source: 'mcp', description: 'Z.' },
        { name: 'read_file', source: 'builtin', description: 'Read a file. Long files come in pages.' },
        { name: 'getWeather', source: 'vscode', description: 'Weather' },
        { name: 'alpha.tool', source: 'mcp', description: 'A.' },
        { name: 'list_dir', source: 'builtin', description: 'List a folder.' },
      ],
      { on: ['getWeather'], off: ['list_dir'] },
    );
    assert.deepEqual(
      entries.map((e) => [e.name, e.enabled]),
      [
        ['read_file', true],
        ['list_dir', false],
        ['alpha.tool', true],
        ['zeta.tool', true],
        ['getWeather', true],
      ],
    );
    assert.equal(entries[0]?.description, 'Read a file.');
  });

  it('a description is cut to its first sentence on one line', () => {
    assert.equal(shortDescription('Search file contents.\nReturns file:line.'), 'Search file contents.');
    assert.equal(shortDescription('Version 1.2 of the API, no end'), 'Version 1.2 of the API, no end');
    assert.equal(
      shortDescription('Find files by glob, e.g. "src/**/*.ts". More.'),
      'Find files by glob, e.g. "src/**/*.ts".',
    );
    assert.equal(shortDescription('x'.repeat(300)).length, 120);
  });
});
