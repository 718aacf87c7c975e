// The pieces of a streamed completion: the SSE items the server writes and the chunks they carry.

/** One step of a streamed response. */
export type StreamItem =
  | { kind: 'data'; chunk: Record<string, unknown> }
  /** Lines written verbatim as one event (a malformed line, a named error event, a flat error). */
  | { kind: 'raw'; lines: string[] }
  | { kind: 'done' }
  /** The server destroys the socket here. */
  | { kind: 'reset' }
  /** The server sends nothing for `stallMs`, then goes on. */
  | { kind: 'stall' };

/** Who a completion is: the fields every chunk of it repeats. */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
}

/** The top-level fields shared by every chunk of one completion. */
export function chunkBase(identity: ChunkIdentity): Record<string, unknown> {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
  };
}

/** A data item with one choice (`delta`, `finish`), extra choice fields and extra top-level fields. */
export function choiceChunk(
  base: Record<string, unknown>,
  delta: Record<string, unknown>,
  finish: string | null = null,
  choiceExtra: Record<string, unknown> = {},
  more: Record<string, unknown> = {},
): StreamItem {
  return {
    kind: 'data',
    chunk: { ...base, choices: [{ index: 0, delta, finish_reason: finish, ...choiceExtra }], ...more },
  };
}
