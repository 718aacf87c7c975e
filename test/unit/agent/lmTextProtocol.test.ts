import * as assert from 'node:assert/strict';
import {
  CALL_REQUIRED_LINE,
  nextCallNumber,
  textProtocolMessages,
  toolSpecsOf,
} from '../../../src/agent/lmTextProtocol';
import { createTextCallParser } from '../../../src/agent/textCallParser';
import { textProtocolSystemPrompt } from '../../../src/agent/textProtocol';
import type { AgentMessage } from '../../../src/agent/types';

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: "The city's name" } },
  required: ['city'],
};
const WEATHER = { name: 'getWeather', description: 'The weather in a city.', inputSchema: WEATHER_SCHEMA };

describe('agent: the text protocol for the language-model provider', () => {
  describe('toolSpecsOf', () => {
    it('keeps a tool’s name, description and object schema as given', () => {
      assert.deepEqual(toolSpecsOf([WEATHER]), [
        {
          name: 'getWeather',
          description: 'The weather in a city.',
          parameters: WEATHER_SCHEMA,
          readOnly: false,
        },
      ]);
    });

    it('makes an object schema of a missing or odd one, and drops a `required` that is not a list of names', () => {
      const [none, odd] = toolSpecsOf([
        { name: 'a', description: 'A.' },
        { name: 'b', description: 'B.', inputSchema: { properties: 'x', required: 'city', title: 'B' } },
      ]);
      assert.deepEqual(none.parameters, { type: 'object', properties: {} });
      assert.deepEqual(odd.parameters, { type: 'object', properties: {}, title: 'B' });
      // The prompt's example reads `required`: it must not throw on these.
      assert.match(textProtocolSystemPrompt([none, odd]), /<tool_call>/);
    });
  });

  describe('textProtocolMessages', () => {
    const specs = toolSpecsOf([WEATHER]);
    const prompt = textProtocolSystemPrompt(specs);
    const conversation: AgentMessage[] = [
      { role: 'system', content: 'You are VS Code’s agent.' },
      { role: 'user', content: 'Weather in Lisbon?' },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [{ id: 'call_1', name: 'getWeather', input: { city: 'Lisbon' } }],
      },
      { role: 'tool', callId: 'call_1', name: 'getWeather', content: 'Sunny, 24 °C' },
      { role: 'user', content: 'And tomorrow?' },
    ];

    it('appends the tools to the system message, writes calls and results as blocks, and joins adjacent user turns', () => {
      const messages = textProtocolMessages(conversation, specs);
      assert.deepEqual(messages, [
        { role: 'system', content: `You are VS Code’s agent.\n\n${prompt}` },
        { role: 'user', content: 'Weather in Lisbon?' },
        {
          role: 'assistant',
          content:
            'Checking.\n<tool_call>\n{"name":"getWeather","arguments":{"city":"Lisbon"}}\n</tool_call>',
        },
        {
          role: 'user',
          content:
            '<tool_result name="getWeather" id="call_1">\nSunny, 24 °C\n</tool_result>\n\nAnd tomorrow?',
        },
      ]);
      assert.ok(messages.every((m) => !('tool_calls' in m) && m.role !== 'tool'));
    });

    it('the assistant’s blocks read back as the same calls', () => {
      const [, , assistant] = textProtocolMessages(conversation, specs);
      const parser = createTextCallParser({ toolNames: ['getWeather'] });
      const events = [...parser.push(assistant.content ?? ''), ...parser.end()];
      assert.deepEqual(
        events.filter((e) => e.type === 'toolCall'),
        [{ type: 'toolCall', call: { id: 'call_1', name: 'getWeather', input: { city: 'Lisbon' } } }],
      );
    });

    it('without a system message, the tools come in a new one first; a required call adds its line', () => {
      const messages = textProtocolMessages([{ role: 'user', content: 'Hi' }], specs, true);
      assert.deepEqual(messages, [
        { role: 'system', content: `${prompt}\n${CALL_REQUIRED_LINE}` },
        { role: 'user', content: 'Hi' },
      ]);
    });

    it('does not change the conversation it is given', () => {
      const copy = structuredClone(conversation);
      textProtocolMessages(conversation, specs);
      assert.deepEqual(conversation, copy);
    });
  });

  describe('nextCallNumber', () => {
    it('is 1 for a conversation without calls', () => {
      assert.equal(nextCallNumber([{ role: 'user', content: 'Hi' }]), 1);
    });

    it('passes every call_<n> id and the number of calls, so a new id never repeats one in the history', () => {
      const calls = (ids: string[]): AgentMessage => ({
        role: 'assistant',
        content: '',
        toolCalls: ids.map((id) => ({ id, name: 'getWeather', input: {} })),
      });
      assert.equal(nextCallNumber([calls(['call_1']), calls(['call_7'])]), 8);
      assert.equal(nextCallNumber([calls(['toolu_a', 'toolu_b', 'call_1'])]), 4);
    });
  });
});
