import type { ChatMessage } from '../../core/domain.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { RecentHistory } from '../context/history-tokens.ts';

/**
 * A round reads the session's newest messages, not its whole history: planning needs only what each participant
 * has not answered yet, and the context the sizes of older messages, which it keeps (see HistoryTokens).
 */
export const ROUND_HISTORY_WINDOW = 200;

/** Messages held for all sessions together: about 15 MB at their largest, whatever the number of sessions. */
export const RECENT_HISTORY_MESSAGES_HELD = 10_000;

/** Options of the recent history. */
export interface RecentHistoryOptions {
  messages: Pick<MessagesRepository, 'recentAtHorizon' | 'changesSince' | 'spokenBy'>;
  /** Messages a round reads (its newest, oldest first). */
  window: number;
  /** Messages held across sessions; the least recently read session is forgotten first. */
  capacity?: number;
}

/** How much a participant said in a session, and its latest message. */
export interface Spoken {
  count: number;
  lastId: number;
}

/** A round's history: the newest messages and, when they are not the whole session, what each participant said in all. */
export interface RoundHistory extends RecentHistory {
  spoken?: ReadonlyMap<string, Spoken>;
}

/** What is held for one session. */
interface Held {
  sessionId: string;
  messages: ChatMessage[];
  /** True while `messages` are every live message of the session. */
  complete: boolean;
  /** What each participant said before the held messages (null while they are the whole session). */
  olderSpoken: Map<string, Spoken> | null;
  /** Where the next read of changes starts; null until the first read. */
  horizon: string | null;
  /** The read in progress: reads of one session apply their changes one after another. */
  reading: Promise<unknown>;
}

/**
 * The newest messages of each session a round reads, kept between rounds: a round reads only the rows written since
 * the last (a person's message, the answers, their delivery: a few rows instead of 200). The database's transaction
 * horizon makes this safe: a write of another process, or one that commits late, comes with a later read (see
 * repositories/message-changes.ts). Deleted messages leave; a session's holding is dropped when it ends, and the
 * least recently read sessions when the messages held pass the capacity.
 */
export class RecentHistorySource {
  private readonly held = new Map<string, Held>();

  constructor(private readonly options: RecentHistoryOptions) {}

  /**
   * The session's newest `window` live messages, oldest first, whether they are all it has, and when they are not,
   * what each participant said in the whole session (counted once from the database, then from the messages that
   * leave the window: a participant's message is never deleted, nor withheld after it was stored).
   */
  read(sessionId: string): Promise<RoundHistory> {
    const held = this.held.get(sessionId) ?? this.start(sessionId);
    const next = held.reading.then(() => this.update(held));
    held.reading = next.catch(() => undefined);
    return next;
  }

  /** Forgets a session (it ended): its next read, if any, starts afresh. */
  forget(sessionId: string): void {
    this.held.delete(sessionId);
  }

  /** Messages held now, across sessions (for tests and the capacity). */
  get size(): number {
    let size = 0;
    for (const held of this.held.values()) size += held.messages.length;
    return size;
  }

  private start(sessionId: string): Held {
    const held: Held = { sessionId, messages: [], complete: false, olderSpoken: null, horizon: null, reading: Promise.resolve() };
    this.held.set(sessionId, held);
    return held;
  }

  private async update(held: Held): Promise<RoundHistory> {
    const { messages, window } = this.options;
    let next: { messages: ChatMessage[]; complete: boolean; horizon: string; dropped: ChatMessage[] };
    if (held.horizon === null) {
      const read = await messages.recentAtHorizon(held.sessionId, window);
      next = { messages: read.messages, complete: read.messages.length < window, horizon: read.horizon, dropped: [] };
    } else {
      const changes = await messages.changesSince(held.sessionId, held.horizon);
      const applied = applyChanges(held, changes.changed, changes.deletedIds, window);
      next = { ...applied, complete: held.complete && applied.dropped.length === 0, horizon: changes.horizon };
    }
    const olderSpoken = next.complete
      ? null
      : held.olderSpoken
        ? countSpoken(next.dropped, held.olderSpoken)
        : await messages.spokenBy(held.sessionId, { beforeId: next.messages[0]?.id ?? Number.MAX_SAFE_INTEGER });
    const result: RoundHistory = {
      messages: [...next.messages],
      complete: next.complete,
      ...(olderSpoken ? { spoken: countSpoken(next.messages, olderSpoken) } : {}),
    };
    // A session forgotten meanwhile (it ended) is not taken back.
    if (this.held.get(held.sessionId) !== held) return result;
    Object.assign(held, { messages: next.messages, complete: next.complete, horizon: next.horizon, olderSpoken });
    this.touch(held);
    return result;
  }

  /** Marks the session as the most recently read, forgetting the least recently read ones past the capacity. */
  private touch(held: Held): void {
    this.held.delete(held.sessionId);
    this.held.set(held.sessionId, held);
    const capacity = this.options.capacity ?? RECENT_HISTORY_MESSAGES_HELD;
    let size = this.size;
    for (const oldest of this.held.values()) {
      if (size <= capacity || oldest === held) break;
      size -= oldest.messages.length;
      this.forget(oldest.sessionId);
    }
  }
}

/**
 * The held messages with `changed` put in (replacing a held one of the same id) and `deletedIds` taken out, oldest
 * first, at most `window` of them (`dropped`: the older ones that had to go). A changed message older than every held one
 * is outside the window and stays out, unless the holding is the whole session (then it committed late).
 */
function applyChanges(held: Held, changed: ChatMessage[], deletedIds: number[], window: number): { messages: ChatMessage[]; dropped: ChatMessage[] } {
  if (changed.length === 0 && deletedIds.length === 0) return { messages: held.messages, dropped: [] };
  const byId = new Map(held.messages.map((message) => [message.id, message]));
  const oldest = held.messages[0]?.id ?? Number.NEGATIVE_INFINITY;
  for (const id of deletedIds) byId.delete(id);
  for (const message of changed) if (held.complete || message.id > oldest || byId.has(message.id)) byId.set(message.id, message);
  const merged = [...byId.values()].sort((a, b) => a.id - b.id);
  if (merged.length <= window) return { messages: merged, dropped: [] };
  return { messages: merged.slice(merged.length - window), dropped: merged.slice(0, merged.length - window) };
}

/** `counted` plus the participants' messages among `messages` (those withheld are not counted, as in spokenBy). */
function countSpoken(messages: readonly ChatMessage[], counted: ReadonlyMap<string, Spoken>): Map<string, Spoken> {
  const spoken = new Map(counted);
  for (const message of messages) {
    if (message.speaker.kind !== 'participant' || message.deliveryStatus === 'withheld') continue;
    const before = spoken.get(message.speaker.name);
    spoken.set(message.speaker.name, { count: (before?.count ?? 0) + 1, lastId: Math.max(before?.lastId ?? 0, message.id) });
  }
  return spoken;
}
