/** Client-side checks run before anything is sent, so mistakes surface as clear messages, not gateway 400s. */

import * as l10n from '@vscode/l10n';
import { ValidationError } from './errors';
import {
  IMAGE_QUALITIES,
  IMAGE_RESPONSE_FORMATS,
  IMAGE_SIZES,
  type ChatCompletionRequest,
  type ChatMessage,
  type ImageGenerationRequest,
} from './types';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function fail(message: string): never {
  throw new ValidationError(l10n.t('Invalid request: {0}', message));
}

function checkRange(name: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    fail(`${name} must be a number from ${min} to ${max}.`);
  }
}

function checkModel(model: unknown, required: boolean): void {
  if (model === undefined && !required) return;
  if (typeof model !== 'string' || !model.trim()) fail('no model is selected.');
}

/** Body fields the client sets from the request's own fields; `extraBody` cannot give them. */
const MODELLED_FIELDS = new Set([
  'model',
  'messages',
  'stream',
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
]);
const TOOL_MODES = new Set(['auto', 'required', 'none']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isToolCall(call: unknown): boolean {
  if (!isObject(call) || typeof call.id !== 'string' || !call.id || call.type !== 'function') return false;
  const fn = call.function;
  return isObject(fn) && typeof fn.name === 'string' && !!fn.name && typeof fn.arguments === 'string';
}

function checkMessage(message: ChatMessage, i: number): void {
  const n = i + 1;
  if (!message || typeof message !== 'object') fail(`message ${n} is not an object.`);
  if (!ROLES.has(message.role))
    fail(`message ${n} has role "${String(message.role)}"; use system, user, assistant or tool.`);
  if (message.role === 'assistant' && message.tool_calls !== undefined) {
    if (!Array.isArray(message.tool_calls) || !message.tool_calls.every(isToolCall))
      fail(`message ${n} has a tool call without its id, function name or arguments text.`);
    // OpenAI's shape of a turn that only called tools.
    if (message.content === null && message.tool_calls.length) return;
  }
  if (typeof message.content !== 'string') fail(`message ${n} has no text content.`);
  if (message.role === 'tool' && !message.tool_call_id)
    fail(`message ${n} is a tool result without the id of its call.`);
}

function checkToolOptions(request: ChatCompletionRequest): void {
  const choice: unknown = request.tool_choice;
  if (
    choice !== undefined &&
    !TOOL_MODES.has(choice as string) &&
    !(isObject(choice) && typeof choice.type === 'string')
  )
    fail(
      'tool_choice must be auto, required, none or an object such as {"type":"function","function":{"name":…}}.',
    );
  if (request.parallel_tool_calls !== undefined && typeof request.parallel_tool_calls !== 'boolean')
    fail('parallel_tool_calls must be true or false.');
  const extra: unknown = request.extraBody;
  if (extra === undefined) return;
  if (!isObject(extra)) fail('extraBody must be an object of body fields.');
  const taken = Object.keys(extra).filter((key) => MODELLED_FIELDS.has(key));
  if (taken.length) fail(`extraBody cannot set ${taken.join(', ')}; use the request's own fields.`);
}

/** Throws a ValidationError when the chat request cannot be valid. */
export function validateChatRequest(request: ChatCompletionRequest): void {
  if (!request || typeof request !== 'object') fail('the request is missing.');
  checkModel(request.model, true);
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    fail('there are no messages to send.');
  request.messages.forEach(checkMessage);
  checkRange('temperature', request.temperature, 0, 2);
  checkRange('top_p', request.top_p, 0, 1);
  if (
    request.max_tokens !== undefined &&
    (!Number.isInteger(request.max_tokens) || request.max_tokens <= 0)
  ) {
    fail('max_tokens must be a positive whole number.');
  }
  const stop = request.stop;
  if (stop !== undefined && typeof stop !== 'string') {
    if (!Array.isArray(stop) || !stop.every((s) => typeof s === 'string')) {
      fail('stop must be a string or a list of strings.');
    }
  }
  checkToolOptions(request);
}

/** Throws a ValidationError when the image request cannot be valid. */
export function validateImageRequest(request: ImageGenerationRequest): void {
  if (!request || typeof request !== 'object') fail('the request is missing.');
  if (typeof request.prompt !== 'string' || !request.prompt.trim()) fail('describe the image in the prompt.');
  checkModel(request.model, false);
  const n = request.n;
  if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > 4))
    fail('n (number of images) must be 1, 2, 3 or 4.');
  if (request.size !== undefined && !IMAGE_SIZES.includes(request.size)) {
    fail(`size must be one of ${IMAGE_SIZES.join(', ')}.`);
  }
  if (request.quality !== undefined && !IMAGE_QUALITIES.includes(request.quality)) {
    fail(`quality must be one of ${IMAGE_QUALITIES.join(', ')}.`);
  }
  if (request.response_format !== undefined && !IMAGE_RESPONSE_FORMATS.includes(request.response_format)) {
    fail('response_format must be url or b64_json.');
  }
}
