/**
 * Per-person pacing of messages in a discussion. A person who writes faster than the room can answer (a paste
 * split in pieces, or a flood) is folded: the extra messages are stored and read by every model in the next turn,
 * but they start no turn of their own and count nothing against the session's limits, so one person can never
 * spend everyone's message budget. Nothing a person says is dropped.
 */
import type { Clock } from '../../core/clock.ts';

/** Messages this close together from one person are one thought typed in pieces (or a flood). */
export const FLOOD_BURST_WINDOW_MS = 2000;

/** What to do with one message. */
export type FloodDecision = 'counted' | 'folded' | 'folded_first';

/** The knobs: a burst window and a sustained rate. */
export interface FloodGateSettings {
  /** A message this soon after the same person's previous one joins that message's turn. */
  burstWindowMs: number;
  /** At most this many counted messages per person per minute; more are folded. */
  messagesPerMinute: number;
}

interface PersonPace {
  lastAt: number;
  counted: number[];
  folding: boolean;
}

/** Decides, per session and person, whether a message counts and starts a turn, or is folded into the last one. */
export class FloodGate {
  private readonly paces = new Map<string, PersonPace>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: () => FloodGateSettings,
  ) {}

  /**
   * Records a message by `personId` in `sessionId` and says how to treat it. `answeredSincePrevious`: the room
   * answered this person's previous message, so this one is a conversation, not a flood, however quick.
   */
  admit(sessionId: string, personId: string, answeredSincePrevious = false): FloodDecision {
    const now = this.clock.now().getTime();
    const { burstWindowMs, messagesPerMinute } = this.settings();
    const key = `${sessionId}\u0000${personId}`;
    const pace = this.paces.get(key) ?? { lastAt: Number.NEGATIVE_INFINITY, counted: [], folding: false };
    pace.counted = answeredSincePrevious ? [] : pace.counted.filter((at) => now - at < 60_000);
    const inBurst = !answeredSincePrevious && now - pace.lastAt < burstWindowMs;
    pace.lastAt = now;
    this.paces.set(key, pace);
    if (inBurst || pace.counted.length >= messagesPerMinute) {
      const first = !pace.folding;
      pace.folding = true;
      return first ? 'folded_first' : 'folded';
    }
    pace.folding = false;
    pace.counted.push(now);
    return 'counted';
  }

  /** Forgets a session's paces (it ended). */
  forget(sessionId: string): void {
    for (const key of this.paces.keys()) if (key.startsWith(`${sessionId}\u0000`)) this.paces.delete(key);
  }
}
