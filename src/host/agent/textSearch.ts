import type { TextMatch } from '../../agent/toolText';

/** Hits shown to the model. */
export const SHOWN_MATCHES = 50;
/** Hits counted before the count stops ("first 50 of 10,000+"): counting further costs time and says nothing. */
export const COUNTED_MATCHES = 10_000;

/** A search's hits: the first SHOWN_MATCHES, and how many there were in all. */
export interface TextSearch {
  matches: TextMatch[];
  total: number;
  /** True when counting stopped at COUNTED_MATCHES. */
  capped: boolean;
  /** Hits left out because their line held the API key. */
  withheld: number;
}

/** What a search needs to know, whichever engine runs it. */
export interface TextQuery {
  query: string;
  isRegex: boolean;
  glob?: string;
  apiKey?: string;
  exclude: readonly string[];
}
