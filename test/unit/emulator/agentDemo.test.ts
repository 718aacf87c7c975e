import * as assert from 'node:assert/strict';
import { demoAgentAction } from '../../gateway-emulator/agentDemo';
import { textCallBlock } from '../../gateway-emulator/agentRuns';
import { startEmulator } from '../../gateway-emulator';
import { MODEL, parseSse, post, type Chunk } from './helpers';

const AGENT_TOOLS = ['read_file', 'list_dir', 'find_files', 'search_text', 'edit_file'].map((name) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: {} } },
}));

type Message = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };

/** A native agent conversation without a script marker, with one tool result per entry of `results`. */
function nativeBody(
  question: string,
  results: string[],
  tools: unknown[] = AGENT_TOOLS,
): Record<string, unknown> {
  const messages: Message[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: question },
  ];
  results.forEach((content, i) => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'x', arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content });
  });
  return { model: MODEL, messages, tools, stream: true };
}

describe('Emulator: the Agent-mode demonstration of npm start', () => {
  it('explores: list, find, read the first file found, search a word of the question, then answers', () => {
    const q = 'Why does applyDiscount round?';
    const names = (results: string[]) => {
      const step = demoAgentAction(nativeBody(q, results));
      assert.ok(step);
      return step.action.kind === 'call'
        ? step.action.calls.map((c) => [c.name, c.args])
        : step.action.kind === 'answer'
          ? step.action.text
          : '';
    };
    assert.deepEqual(names([]), [['list_dir', { path: '.' }]]);
    assert.deepEqual(names(['src/\ntest/']), [['find_files', { glob: 'src/**/*.ts' }]]);
    assert.deepEqual(names(['src/', 'src/cart.ts\nsrc/money.ts']), [['read_file', { path: 'src/cart.ts' }]]);
    assert.deepEqual(names(['src/', 'src/cart.ts', '1: import']), [
      ['search_text', { query: 'applyDiscount' }],
    ]);
    const answer = names([
      'src/',
      'src/cart.ts',
      '1: import',
      'src/cart.ts:22: export function applyDiscount',
    ]);
    assert.match(String(answer), /demonstration of Agent mode.*read src\/cart\.ts.*`applyDiscount`/s);
  });

  it('works in the text protocol too, and stays out of requests without the agent’s tools', () => {
    const text = demoAgentAction({
      model: MODEL,
      stream: true,
      messages: [
        {
          role: 'system',
          content: `Tools: read_file, list_dir, find_files, search_text.\n${textCallBlock('read_file', {})}`,
        },
        { role: 'user', content: 'Explore' },
        { role: 'assistant', content: textCallBlock('list_dir', { path: '.' }) },
        { role: 'user', content: '<tool_result name="list_dir" id="1">\nsrc/\n</tool_result>' },
      ],
    });
    assert.equal(text?.state.protocol, 'text');
    assert.equal(text?.action.kind === 'call' && text.action.calls[0]?.name, 'find_files');
    // VS Code's agent mode through the provider offers other tools: no demonstration.
    const other = [
      { type: 'function', function: { name: 'vscode_readFile', parameters: { type: 'object' } } },
    ];
    assert.equal(demoAgentAction(nativeBody('Explore', [], other)), undefined);
    // Ask mode: no tools at all.
    assert.equal(
      demoAgentAction({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      undefined,
    );
  });

  it('only the emulator started with agentDemo plays it', async () => {
    for (const agentDemo of [true, false]) {
      const emulator = await startEmulator({ agentDemo });
      try {
        const res = await post(emulator.url, '/v1/chat/completions', nativeBody('Explore the project', []));
        const chunks = parseSse(await res.text())
          .filter((e) => e.data !== '[DONE]')
          .map((e) => JSON.parse(e.data) as Chunk);
        const calls = chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta?.tool_calls ?? []));
        assert.equal(calls.length > 0, agentDemo, `agentDemo ${agentDemo}`);
      } finally {
        await emulator.close();
      }
    }
  });
});
