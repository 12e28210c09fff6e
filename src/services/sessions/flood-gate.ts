/**
 * Per-person pacing of messages in a discussion. A person who writes faster than the room can answer (a paste
 * split in pieces, or a flood) is folded: the extra messages are stored and read by every model in the next turn,
 * but they start no turn of their own and count nothing against the session's limits, so one person can never
 * spend everyone's message budget. Nothing a person says is dropped.
 */
import type { Clock } from '../../core/clock.ts';
import type { EventBus } from '../../core/ports.ts';

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

const paceKey = (sessionId: string, personId: string) => `${sessionId}\u0000${personId}`;

/** Decides, per session and person, whether a message counts and starts a turn, or is folded into the last one. */
export class FloodGate {
  private readonly paces = new Map<string, PersonPace>();
  /** The pace before the last message `admitIfCertain` admitted, per person (null: none), until it is stored. */
  private readonly admitted = new Map<string, PersonPace | null>();
  /** When a model last spoke in each session where someone is paced, as this process saw it (clock ms). */
  private readonly lastAnswers = new Map<string, number>();

  /** `events`: the answers stored in this process, so most messages are paced without reading the history. */
  constructor(
    private readonly clock: Clock,
    private readonly settings: () => FloodGateSettings,
    events?: Pick<EventBus, 'subscribe'>,
  ) {
    events?.subscribe((event) => {
      // An ended session's paces are dropped, so the maps hold live sessions only.
      if (event.type === 'session_ended') return this.forget(event.sessionId);
      if (event.type !== 'message' || (event.message.speaker.kind !== 'participant' && event.message.speaker.kind !== 'moderator')) return;
      // Only where someone is paced: an answer before anyone's first message here decides nothing (every pace starts
      // later), and an ended session's closing would otherwise bring its entry back for the life of the process.
      const last = this.lastAnswers.get(event.message.sessionId);
      if (last !== undefined) this.lastAnswers.set(event.message.sessionId, Math.max(event.message.createdAt.getTime(), last));
    });
  }

  /**
   * Admits the message as counted when that is certain without reading the history (what `pace` would decide without
   * asking), and says so; otherwise records nothing and answers false (then `pace` decides once it is stored). A
   * message counted here can be stored and counted in one statement.
   */
  admitIfCertain(sessionId: string, personId: string): boolean {
    const pace = this.paces.get(paceKey(sessionId, personId));
    const seen = this.answeredSinceLastSeen(sessionId, pace);
    const certain = seen || !pace ? this.settings().messagesPerMinute > 0 : !this.wouldFold(pace);
    if (!certain) return false;
    const before = pace ? { ...pace, counted: [...pace.counted] } : null;
    this.admit(sessionId, personId, seen);
    this.admitted.set(paceKey(sessionId, personId), before);
    return true;
  }

  /**
   * Ends what `admitIfCertain` began for this person's message once its store is over: kept when it was `stored`;
   * otherwise (the database failed, or it was stored before) taken back, so a retry is paced as if it never came.
   */
  settleAdmission(sessionId: string, personId: string, stored: boolean): void {
    const key = paceKey(sessionId, personId);
    if (!this.admitted.has(key)) return;
    const before = this.admitted.get(key);
    this.admitted.delete(key);
    if (stored) return;
    if (before) this.paces.set(key, before);
    else this.paces.delete(key);
  }

  /**
   * As `admit`, but `answeredSincePrevious` (a read of the history) is asked only when it decides: the answers this
   * process saw do not show one, and the message would be folded without one (another process may have answered).
   */
  async pace(sessionId: string, personId: string, answeredSincePrevious: () => Promise<boolean>): Promise<FloodDecision> {
    const pace = this.paces.get(paceKey(sessionId, personId));
    const seen = this.answeredSinceLastSeen(sessionId, pace);
    if (!pace || seen || !this.wouldFold(pace)) return this.admit(sessionId, personId, seen);
    return this.admit(sessionId, personId, await answeredSincePrevious());
  }

  /**
   * Records a message by `personId` in `sessionId` and says how to treat it. `answeredSincePrevious`: the room
   * answered this person's previous message, so this one is a conversation, not a flood, however quick.
   */
  admit(sessionId: string, personId: string, answeredSincePrevious = false): FloodDecision {
    const now = this.clock.now().getTime();
    const { burstWindowMs, messagesPerMinute } = this.settings();
    const key = paceKey(sessionId, personId);
    const pace = this.paces.get(key) ?? { lastAt: Number.NEGATIVE_INFINITY, counted: [], folding: false };
    pace.counted = answeredSincePrevious ? [] : pace.counted.filter((at) => now - at < 60_000);
    const inBurst = !answeredSincePrevious && now - pace.lastAt < burstWindowMs;
    pace.lastAt = now;
    this.paces.set(key, pace);
    if (!this.lastAnswers.has(sessionId)) this.lastAnswers.set(sessionId, Number.NEGATIVE_INFINITY);
    if (inBurst || pace.counted.length >= messagesPerMinute) {
      const first = !pace.folding;
      pace.folding = true;
      return first ? 'folded_first' : 'folded';
    }
    pace.folding = false;
    pace.counted.push(now);
    return 'counted';
  }

  /** Whether this process saw an answer since the person's previous message (or there was none). */
  private answeredSinceLastSeen(sessionId: string, pace: PersonPace | undefined): boolean {
    return !pace || (this.lastAnswers.get(sessionId) ?? Number.NEGATIVE_INFINITY) > pace.lastAt;
  }

  /** Whether the next message would be folded, unless the room answered since the previous one. */
  private wouldFold(pace: PersonPace): boolean {
    const now = this.clock.now().getTime();
    const { burstWindowMs, messagesPerMinute } = this.settings();
    return now - pace.lastAt < burstWindowMs || pace.counted.filter((at) => now - at < 60_000).length >= messagesPerMinute;
  }

  /** Forgets a session's paces (it ended). */
  forget(sessionId: string): void {
    this.lastAnswers.delete(sessionId);
    for (const key of this.paces.keys()) if (key.startsWith(`${sessionId}\u0000`)) this.paces.delete(key);
    for (const key of this.admitted.keys()) if (key.startsWith(`${sessionId}\u0000`)) this.admitted.delete(key);
  }
}
