import * as assert from 'node:assert/strict';
import { BUILTIN_TOOLS } from '../../../src/agent/builtinTools';
import { runAgent, type AgentTool } from '../../../src/agent/loop';
import { PLAN_INSTRUCTIONS, planTools } from '../../../src/agent/planMode';
import type { AgentMessage } from '../../../src/agent/types';
import { CHAT_MODES } from '../../../src/chat/agentTurn';
import { parseWebviewMessage } from '../../../src/protocol';
import { ScriptedModel, baseOptions, call, fakeTool, say } from './fakes';

const toolMessages = (messages: readonly AgentMessage[]) =>
  messages.filter((m): m is Extract<AgentMessage, { role: 'tool' }> => m.role === 'tool');

describe('Plan mode', () => {
  it('offers the read-only built-in tools only, in their order: no edit, create or delete', () => {
    const names = planTools(BUILTIN_TOOLS).map((t) => t.name);
    assert.deepEqual(names, [
      'read_file',
      'list_dir',
      'find_files',
      'search_text',
      'search_symbols',
      'get_problems',
    ]);
    for (const tool of BUILTIN_TOOLS.filter((t) => !t.readOnly))
      assert.ok(!names.includes(tool.name), `${tool.name} is not offered`);
  });

  it('leaves out any tool that is not read-only, whatever its name (a command, an MCP tool)', () => {
    const specs = [
      { name: 'read_file', readOnly: true },
      { name: 'run_command', readOnly: false },
      { name: 'server.write', readOnly: false },
      { name: 'server.lookup', readOnly: true },
    ];
    assert.deepEqual(
      planTools(specs).map((t) => t.name),
      ['read_file', 'server.lookup'],
    );
  });

  it('asks for a numbered plan and no edits or commands', () => {
    assert.match(PLAN_INSTRUCTIONS, /numbered plan/);
    assert.match(PLAN_INSTRUCTIONS, /do not edit, create or delete files or run commands/);
  });

  it('an edit the model calls anyway gets a tool error and never runs; the run goes on to its plan', async () => {
    const edit = fakeTool('edit_file', undefined, {
      spec: { ...fakeTool('edit_file').spec, readOnly: false },
    });
    const read = fakeTool('read_file');
    const all: Record<string, AgentTool> = { read_file: read, edit_file: edit };
    // The run's tool map as the host builds it for a Plan run: the read-only specs only.
    const tools = Object.fromEntries(
      planTools(Object.values(all).map((t) => t.spec)).map((spec) => [spec.name, all[spec.name]]),
    );
    const model = new ScriptedModel([
      [call('edit_file', { path: 'a.ts' })],
      [call('read_file', { path: 'a.ts' })],
      [say('1. Change a.ts.')],
    ]);
    const result = await runAgent(baseOptions(model, tools));
    assert.equal(result.status, 'done');
    const [error] = toolMessages(model.requests[1]);
    assert.equal(error.isError, true);
    assert.match(error.content, /^Unknown tool "edit_file"\. The tools are: read_file\.$/);
    assert.deepEqual(edit.runs, []);
    assert.deepEqual(read.runs, [{ path: 'a.ts' }]);
  });

  it('is a mode the webview may choose; an unknown mode is refused', () => {
    assert.ok(CHAT_MODES.includes('plan'));
    assert.deepEqual(parseWebviewMessage({ type: 'setMode', mode: 'plan' }), {
      type: 'setMode',
      mode: 'plan',
    });
    assert.equal(parseWebviewMessage({ type: 'setMode', mode: 'autopilot' }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'startWithAgent', turnId: 't-9' }), {
      type: 'startWithAgent',
      turnId: 't-9',
    });
    assert.equal(parseWebviewMessage({ type: 'startWithAgent' }), undefined);
  });
});
