import * as assert from 'node:assert/strict';
import type { AgentRun } from '../../../src/chat/agentTurn';
import { parseConversationFile, serializeConversation } from '../../../src/chat/storeFormat';
import type { AssistantTurn, Conversation } from '../../../src/chat/types';

const run: AgentRun = {
  parts: [
    { kind: 'text', text: 'Reading.' },
    {
      kind: 'tool',
      id: 'call_1',
      name: 'read_file',
      summary: 'Read a.ts',
      status: 'done',
      input: '{}',
      result: 'x',
    },
  ],
  files: [{ path: 'a.ts', created: false, deleted: false, added: 1, removed: 0, decision: 'pending' }],
  protocol: 'text',
  rules: ['AGENTS.md'],
};

function conversation(agent: unknown, mode: unknown = 'agent'): Conversation {
  const answer = {
    id: 't2',
    role: 'assistant',
    model: 'm',
    content: 'Reading.',
    status: 'complete',
    createdAt: 2,
    agent,
  } as unknown as AssistantTurn;
  return {
    id: 'c1',
    title: 'Agent',
    model: 'm',
    mode: mode as Conversation['mode'],
    createdAt: 1,
    updatedAt: 2,
    turns: [{ id: 't1', role: 'user', content: 'Go', checkpoint: true, createdAt: 1 }, answer],
  };
}

function roundTrip(conv: Conversation): Conversation {
  const parsed = parseConversationFile(serializeConversation(conv), conv.id);
  assert.ok(parsed.ok);
  return parsed.value;
}

describe('stored agent runs', () => {
  it('a run, its mode and its checkpoint mark survive a save and a load unchanged', () => {
    const conv = conversation(run);
    assert.deepEqual(roundTrip(conv), conv);
  });

  for (const [label, agent] of [
    ['parts not a list', { ...run, parts: 'x' }],
    ['a tool row with an unknown status', { ...run, parts: [{ ...run.parts[1], status: 'hacked' }] }],
    ['a file row without a decision', { ...run, files: [{ ...run.files[0], decision: undefined }] }],
    ['a file row with a negative count', { ...run, files: [{ ...run.files[0], added: -1 }] }],
    ['rules that are not strings', { ...run, rules: [1] }],
  ] as const) {
    it(`a malformed run (${label}) loses its agent record; the answer and the conversation load`, () => {
      const loaded = roundTrip(conversation(agent));
      const answer = loaded.turns[1] as AssistantTurn;
      assert.equal(answer.agent, undefined);
      assert.equal(answer.content, 'Reading.');
    });
  }

  it('a Plan conversation and its plan run survive a save and a load; a plan mark that is not a boolean drops the run', () => {
    const conv = conversation({ ...run, files: [], plan: true }, 'plan');
    assert.deepEqual(roundTrip(conv), conv);
    const loaded = roundTrip(conversation({ ...run, plan: 'yes' }, 'plan'));
    assert.equal(loaded.mode, 'plan');
    assert.equal((loaded.turns[1] as AssistantTurn).agent, undefined);
  });

  it('a conversation stored before Plan mode (Ask or Agent, runs without a plan mark) loads unchanged', () => {
    const noMode = conversation(run);
    delete noMode.mode;
    for (const conv of [noMode, conversation(run, 'ask'), conversation(run, 'agent')])
      assert.deepEqual(roundTrip(conv), conv);
  });

  it('an unknown mode loads as Ask', () => {
    assert.equal(roundTrip(conversation(run, 'autopilot')).mode, undefined);
  });
});
