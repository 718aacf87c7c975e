// The chat panel's rows of the fault matrix: what the user types (with the emulator's fault marker), how
// the answer must end, and what the inline error must say (the cause and the next step).
import { HTTP_MESSAGES } from '../host/faultCases';

export interface ChatFaultCase {
  /** Content of the `[[fault:…]]` marker. */
  fault: string;
  /** `error`: no answer text; `partial`: the text that arrived stays; `recovered`: the full answer. */
  outcome: 'error' | 'partial' | 'recovered';
  /** The inline error message (failures only). */
  message?: RegExp;
  /** Label of the action button the error offers besides Retry, if any. */
  action?: string;
  /** Bound on waiting for the answer to end. */
  timeoutMs?: number;
}

export const CHAT_FAULT_CASES: readonly ChatFaultCase[] = [
  { fault: 'status:401:openai', outcome: 'error', message: HTTP_MESSAGES[401], action: 'Set API Key' },
  {
    fault: 'status:400:openai',
    outcome: 'error',
    message: HTTP_MESSAGES[400],
    action: 'Drop oldest messages',
  },
  {
    fault: 'status:429:openai,retry-after:120',
    outcome: 'error',
    message: /rate-limiting requests \(429\)\. Wait 2 minutes and try again/,
  },
  { fault: 'status:500:empty', outcome: 'error', message: HTTP_MESSAGES[500] },
  { fault: 'status:503:html', outcome: 'error', message: HTTP_MESSAGES[503] },
  { fault: 'reset-before-first-token', outcome: 'error', message: /closed the connection[\s\S]*Try again/ },
  {
    fault: 'stall-first-byte',
    outcome: 'error',
    message: /did not start answering within 5 s[\s\S]*raise the time-out in the settings/,
  },
  {
    fault: 'in-stream-error:chunk',
    outcome: 'partial',
    message:
      /reported an error in the middle of the answer\. Try again\. Gateway said: Upstream provider error/,
  },
  { fault: 'reset-mid-stream', outcome: 'partial', message: /connection broke in the middle of the answer/ },
  {
    fault: 'stall-mid-stream',
    outcome: 'partial',
    message: /sent nothing for 5 s in the middle of the answer[\s\S]*raise the idle time-out/,
  },
  { fault: 'no-done-no-finish', outcome: 'partial', message: /cut off[\s\S]*Try again/ },
  { fault: 'malformed-chunk', outcome: 'partial', message: /not valid JSON[\s\S]*Try again/ },
  { fault: 'no-done', outcome: 'recovered' },
  { fault: 'json-instead-of-sse', outcome: 'recovered' },
  { fault: 'big-event:5242880', outcome: 'recovered', timeoutMs: 60_000 },
];
