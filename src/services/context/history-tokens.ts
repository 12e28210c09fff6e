import { LRUCache } from 'lru-cache';
import type { ChatMessage } from '../../core/domain.ts';

/** A session's most recent messages, oldest first; `complete` when they are all it has. */
export interface RecentHistory {
  messages: ChatMessage[];
  complete: boolean;
}

/** Sessions whose older messages' sizes are kept (the least recently used is forgotten first). */
const SESSIONS_REMEMBERED = 2_000;

interface SessionSizes {
  /** Every discussion message with an id up to this one is counted below. */
  coveredUpTo: number;
  ids: number[];
  /** Raw tokenizer counts, in the order of `ids` (a model's correction is applied when summed). */
  raw: number[];
}

/**
 * The token sizes of a session's discussion messages, kept per session so a round reads only its recent window and
 * still knows how large the whole history is (the context decides on that size when to switch to the record).
 * Sizes only: a few numbers per message. Filled from a full read the first time (or after a restart), then
 * extended from each window. A message committed late with an id below ones already counted (two writers on a
 * Postgres server) is missed from the sum: it is a size estimate, and the message itself is in the next windows.
 */
export class HistoryTokens {
  private readonly sessions = new LRUCache<string, SessionSizes>({ max: SESSIONS_REMEMBERED });

  /** True when the messages older than `window`'s oldest are all counted. */
  covers(sessionId: string, window: readonly ChatMessage[]): boolean {
    const sizes = this.sessions.peek(sessionId);
    const oldest = window[0];
    return sizes !== undefined && oldest !== undefined && sizes.coveredUpTo >= oldest.id;
  }

  /** Counts the discussion messages of `messages` (ascending ids) that are newer than what is counted. */
  extend(sessionId: string, messages: readonly ChatMessage[], rawCount: (message: ChatMessage) => number, complete: boolean): void {
    let sizes = this.sessions.peek(sessionId);
    if (!sizes || complete) sizes = { coveredUpTo: 0, ids: [], raw: [] };
    // Extending is what keeps a session remembered; the reads peek, so they leave its age alone.
    this.sessions.set(sessionId, sizes);
    for (const message of messages) {
      if (message.id <= sizes.coveredUpTo) continue;
      sizes.ids.push(message.id);
      sizes.raw.push(rawCount(message));
      sizes.coveredUpTo = message.id;
    }
  }

  /** The corrected size of the counted messages older than `beforeId`. */
  olderThan(sessionId: string, beforeId: number, corrected: (raw: number) => number): number {
    const sizes = this.sessions.peek(sessionId);
    if (!sizes) return 0;
    let sum = 0;
    for (let index = 0; index < sizes.ids.length && (sizes.ids[index] ?? 0) < beforeId; index += 1) sum += corrected(sizes.raw[index] ?? 0);
    return sum;
  }
}
