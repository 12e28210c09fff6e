/** Ownership of live sessions by lease: a session's turns run in one process; another takes over when it is gone. */
export { OWNERSHIP_TIMING, type LocalRounds, type SessionOwnershipOptions, type SessionSignals } from './session-ownership-options.ts';
import { OutageLog } from '../../logging/outage-log.ts';
import type { HumanMessageRef } from '../../repositories/session-leases-repository.ts';
import { OpeningWatch } from './opening-watch.ts';
import { OWNERSHIP_TIMING, type SessionOwnershipOptions } from './session-ownership-options.ts';
import { foldSettled, forgetHandedUntil, markHanded, stopInactive, type Owned } from './owned-session.ts';
import { unansweredPeople } from './unanswered-people.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { HumanMessageHandover } from '../../core/service-ports.ts';

/** Orphans adopted per pass at most (the rest in the next pass, a second later). */
const ORPHANS_PER_PASS = 50;

/**
 * Holds the leases of the sessions this process runs. A person's message stored by another process is found by
 * polling, and at once when that process's notice comes (see `SessionSignals`; so are kicks and ends); `!continue`
 * handled elsewhere arrives as a kick request on the lease; a lease lost (a long pause) aborts the local rounds; an
 * active session nobody holds is adopted and resumed as a restart resumes it.
 */
export class SessionOwnership {
  private readonly owned = new Map<string, Owned>();
  private readonly claims = new Map<string, Promise<boolean>>();
  private readonly openings: OpeningWatch;
  /** Claims and kicks under way, so `settled` can wait for them. */
  private readonly inFlight = new Map<Promise<unknown>, string>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  /** A notice came during a pass: another follows it at once. */
  private passAgain = false;
  private unsubscribe: (() => void) | null = null;
  private lastRenew = 0;
  /** Since when the passes reach the database again after one failed (null while they fail; from the start before). */
  private reachableSince: number | null = Number.NEGATIVE_INFINITY;
  private readonly outages: OutageLog;

  constructor(private readonly options: SessionOwnershipOptions) {
    this.leaseMs = options.leaseMs ?? OWNERSHIP_TIMING.leaseMs;
    this.pollMs = options.pollMs ?? OWNERSHIP_TIMING.pollMs;
    this.openings = new OpeningWatch(options);
    this.outages = new OutageLog(options.logger, 'the session owner');
  }

  /** Whether this process holds the session's lease. */
  holds(sessionId: string): boolean {
    return this.owned.has(sessionId);
  }

  /** The sessions this process holds. */
  ownedSessions(): string[] {
    return [...this.owned.keys()];
  }

  /** A message to answer: run here when the session is ours (or free), else leave it stored for its owner. */
  human(session: Session, message: ChatMessage, handover?: HumanMessageHandover): void {
    // Shutting down: the next owner answers whoever is unanswered (see `resume`); no round starts here now.
    if (this.stopping) return;
    const owned = this.owned.get(session.id);
    if (owned) {
      if (this.mark(owned, message.id)) this.options.rounds.onHumanMessage(session, message, handover);
      return;
    }
    const claimed = this.claim(session, message).then(async (ours) => {
      // Not a person's (the Moderator's opening, posted where the plan was approved): the owner's pass picks up only
      // people's messages, so it is asked to start the rounds, which its watch of the opening would otherwise leave to us.
      if (!ours && message.speaker.kind !== 'human') await this.options.leases.requestKick(session.id);
      if (!ours) this.callOwner(session.id);
    });
    this.track(
      session.id,
      claimed.catch((error: unknown) => this.options.logger.warn({ err: error, session: session.id }, 'could not claim a session')),
    );
  }

  /** AI rounds should start: here when the session is ours (or free), else the owner is asked to. */
  kick(sessionId: string): void {
    if (this.stopping) return;
    if (this.owned.has(sessionId)) return this.options.rounds.kick(sessionId);
    const task = (async () => {
      const session = await this.options.sessions.findById(sessionId);
      if (!session || (await this.claim(session, null))) return;
      // Nobody holds it: the next orphan scan (here or elsewhere) resumes it.
      if (!(await this.options.leases.requestKick(sessionId))) return;
      this.options.logger.debug({ session: sessionId }, 'asked the owner of a session to continue');
      this.callOwner(sessionId);
    })().catch((error: unknown) => this.options.logger.warn({ err: error, session: sessionId }, 'could not kick a session'));
    this.track(sessionId, task);
  }

  /** Calls the session's owner, wherever it runs, to look at it now (see `SessionSignals`). */
  callOwner(sessionId: string): void {
    this.options.signals?.callOwner(sessionId);
  }

  /** Resolves once no claim or kick is under way (tests and shutdown wait on it). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.keys()]);
  }

  /** Sessions with a claim or kick under way. */
  pendingSessions(): string[] {
    return [...new Set(this.inFlight.values())];
  }

  private track(sessionId: string, promise: Promise<unknown>): void {
    this.inFlight.set(promise, sessionId);
    const forget = () => void this.inFlight.delete(promise);
    void promise.then(forget, forget);
  }

  /** Adopts every active session nobody holds and resumes it (a restart, or the owner died). */
  async adoptOrphans(): Promise<number> {
    if (this.stopping) return 0;
    return this.adopt(await this.options.leases.orphans(this.options.clock.now(), ORPHANS_PER_PASS));
  }

  private async adopt(orphans: string[]): Promise<number> {
    let adopted = 0;
    for (const sessionId of orphans) {
      if (this.stopping) break;
      const session = await this.options.sessions.findById(sessionId);
      if (session && (await this.claim(session, null))) adopted += 1;
    }
    return adopted;
  }

  /** One pass of the owner's duties: renew, drop what ended or was lost, take kicks, pick up messages, adopt orphans. */
  async tick(): Promise<void> {
    if (this.stopping) return;
    await this.pass().catch((error: unknown) => {
      this.reachableSince = null;
      throw error;
    });
  }

  private async pass(): Promise<void> {
    await this.renewIfDue();
    const mine = [...this.owned.entries()];
    const sessionIds = mine.map(([sessionId]) => sessionId);
    const afterId = mine.length === 0 ? 0 : Math.min(...mine.map(([, owned]) => owned.floor));
    const seenIds = mine.flatMap(([, owned]) => [...owned.handed.keys()]);
    // One statement: an idle process sends one a second, not four; the messages it was handed are not sent back.
    const query = { ownerId: this.options.ownerId, sessionIds, afterId, seenIds, now: this.options.clock.now(), orphanLimit: ORPHANS_PER_PASS };
    const pass = await this.options.leases.ownerPass(query);
    this.reachableSince ??= query.now.getTime();
    // Only the sessions the pass asked about: one taken meanwhile has no status in it, and is not ended.
    const asked = new Set(sessionIds);
    const held = new Map([...this.owned].filter(([sessionId]) => asked.has(sessionId)));
    const ended = stopInactive(held, pass.statuses, this.options.rounds);
    for (const sessionId of ended) this.owned.delete(sessionId);
    await this.options.leases.release(this.options.ownerId, ended);
    for (const sessionId of pass.kicks) if (this.owned.has(sessionId)) this.options.rounds.kick(sessionId);
    await this.pickUpMessages(pass.humanMessages);
    // Just after a database outage every lease has lapsed: their owners renew at their first pass, so this one waits a
    // third of a lease before it adopts (a live owner's sessions would move, their answers in flight asked again).
    if (query.now.getTime() - this.reachableSince >= this.leaseMs / 3) await this.adopt(pass.orphans);
    await this.resumeStalled();
    await this.openings.check((sessionId) => this.owned.has(sessionId));
  }

  /** Polls in the background until `stop` (production; tests call `tick`); a call for a session held here passes at once. */
  startPolling(): void {
    if (this.timer || this.ticking || this.stopping) return;
    this.unsubscribe = this.options.signals?.onOwnerCalled((sessionId) => void (this.owned.has(sessionId) && this.passNow())) ?? null;
    this.schedule(this.pollMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = this.tick()
        .then(() => this.outages.succeeded())
        .catch((error: unknown) => this.outages.failed(error, 'warn', 'session ownership pass failed'))
        .finally(() => {
          this.ticking = null;
          this.schedule(this.passAgain ? 0 : this.pollMs);
          this.passAgain = false;
        });
    }, delayMs);
    this.timer.unref();
  }

  /** The next pass now, or right after the one running (which may have read the database before the message came). */
  private passNow(): void {
    if (this.ticking) this.passAgain = true;
    else if (this.timer) this.schedule(0);
  }

  /** Stops polling and claiming (shutdown); the leases stay until `release`, after the rounds have stopped. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    await Promise.allSettled([...this.claims.values()]);
  }

  /** Gives every lease back, so another process resumes these sessions at once (a rolling restart). */
  async release(): Promise<void> {
    const sessions = this.ownedSessions();
    this.owned.clear();
    await this.options.leases.release(this.options.ownerId, null);
    if (sessions.length > 0) this.options.logger.info({ sessions: sessions.length }, 'released session leases');
  }

  /** Takes a free lease (once per session at a time) and resumes the session here; false when it is not ours. */
  private claim(session: Session, trigger: ChatMessage | null): Promise<boolean> {
    const running = this.claims.get(session.id);
    if (running) return running.then((ours) => (ours && trigger ? (this.human(session, trigger), true) : ours));
    const claim = this.take(session, trigger).finally(() => this.claims.delete(session.id));
    this.claims.set(session.id, claim);
    return claim;
  }

  private async take(session: Session, trigger: ChatMessage | null): Promise<boolean> {
    if (this.owned.has(session.id)) return true;
    if (this.stopping || session.status !== 'active' || !(await this.options.canOwn(session))) return false;
    const floor = await this.options.leases.lastMessageId(session.id);
    const now = this.options.clock.now();
    if (!(await this.options.leases.acquire(session.id, this.options.ownerId, now, new Date(now.getTime() + this.leaseMs)))) return false;
    this.owned.set(session.id, { floor, handed: new Map(), paused: false });
    this.options.logger.info({ session: session.id, owner: this.options.ownerId }, 'took the lease of a session');
    this.options.taken?.(session);
    await this.resume(session, trigger);
    return true;
  }

  /**
   * As after a restart: people who spoke since the discussion began and whom no participant answered yet are
   * answered first (with the message that brought the session here), otherwise the AI rounds continue unless the
   * loop guard already asked for a person (its notice is not posted twice).
   */
  private async resume(session: Session, trigger: ChatMessage | null): Promise<void> {
    const owned = this.owned.get(session.id);
    if (!owned) return;
    const recent = await this.options.messages.listRecent(session.id, 30);
    const unanswered = unansweredPeople(session, recent);
    if (trigger && !unanswered.some((message) => message.id === trigger.id)) unanswered.push(trigger);
    unanswered.sort((left, right) => left.id - right.id);
    for (const message of unanswered) if (this.mark(owned, message.id)) this.options.rounds.onHumanMessage(session, message);
    if (unanswered.length > 0 || !this.options.mayContinue(session)) return;
    // Adopted while its approval still writes the opening, which starts the rounds: watched until it comes (`tick`).
    if (!this.openings.defer(session, recent)) this.options.rounds.kick(session.id);
  }

  /**
   * The database answers again (this pass reached it): each session of ours whose rounds it stopped is resumed as a
   * restart resumes it. Messages handed to those rounds before they stopped are handed again; later ones were not lost.
   */
  private async resumeStalled(): Promise<void> {
    for (const [sessionId, stoppedAt] of this.options.rounds.stalled.list()) {
      const owned = this.owned.get(sessionId);
      const session = owned ? await this.options.sessions.findById(sessionId) : null;
      this.options.rounds.stalled.resumed(sessionId);
      if (!owned || session?.status !== 'active') continue;
      forgetHandedUntil(owned, stoppedAt);
      this.options.logger.info({ session: sessionId }, 'the database is back: resuming the session');
      await this.resume(session, null);
    }
  }

  private async renewIfDue(): Promise<void> {
    const now = this.options.clock.now();
    if (now.getTime() - this.lastRenew < this.leaseMs / 3) return;
    const mine = this.ownedSessions();
    // Noted once it worked: after a database outage the leases are renewed at the first pass that reaches it.
    const kept = new Set(await this.options.leases.renew(this.options.ownerId, mine, new Date(now.getTime() + this.leaseMs)));
    this.lastRenew = now.getTime();
    for (const sessionId of mine.filter((id) => !kept.has(id))) {
      this.owned.delete(sessionId);
      this.options.rounds.abort(sessionId, 'handed_over');
      this.options.logger.warn({ session: sessionId }, 'lost the lease of a session (another process took it over); stopped its rounds here');
    }
  }

  /** People's messages that another process stored for our sessions (found by the pass). */
  private async pickUpMessages(found: HumanMessageRef[]): Promise<void> {
    for (const ref of found) {
      const owned = this.owned.get(ref.sessionId);
      if (!owned || ref.id <= owned.floor || owned.handed.has(ref.id)) continue;
      const [session, message] = await Promise.all([this.options.sessions.findById(ref.sessionId), this.options.messages.findById(ref.id)]);
      if (session?.status === 'active' && message && this.mark(owned, message.id)) this.options.rounds.onHumanMessage(session, message);
    }
    for (const owned of this.owned.values()) foldSettled(owned, this.options.clock.now());
  }

  private mark(owned: Owned, messageId: number): boolean {
    return markHanded(owned, messageId, this.options.clock.now());
  }
}
