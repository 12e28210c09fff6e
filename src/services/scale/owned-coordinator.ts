/** The turn-taking entry point of a process that shares sessions with others: rounds run only where the session is leased. */
import type { Coordinator } from '../coordinator/coordinator.ts';
import { restartRoundsOnResume } from '../coordinator/resume-rounds.ts';
import type { EventBus } from '../../core/ports.ts';
import type { HumanMessageHandover, TurnTaking } from '../../core/service-ports.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { SessionOwnership } from './session-ownership.ts';

/**
 * The coordinator as the rest of the app reaches it: a person's message or a kick for a session another process owns
 * is left to that process (stored messages are polled, kicks requested on the lease). Built after the rounds and the
 * ownership that drives them, so nothing is wired late: the ownership calls the rounds directly, everyone else calls this.
 */
export class OwnedCoordinator implements TurnTaking {
  constructor(
    private readonly rounds: Coordinator,
    private readonly ownership: SessionOwnership,
    events: Pick<EventBus, 'subscribe'>,
  ) {
    // `!continue` handled here goes through the lease too: the owner, wherever it runs, restarts the rounds.
    restartRoundsOnResume(events, this);
    // An end decided here (`!stop`, a limit) is seen by the owner elsewhere at once, its rounds cut, not at its next
    // poll; a pause too, so that no round starts there after the answers being written.
    events.subscribe((event) => {
      if ((event.type === 'session_ended' || event.type === 'session_paused') && !ownership.holds(event.sessionId)) ownership.callOwner(event.sessionId);
    });
  }

  /** Answered here when this process holds (or can take) the session's lease; else its owner picks it up. */
  onHumanMessage(session: Session, message: ChatMessage, handover?: HumanMessageHandover): void {
    this.ownership.human(session, message, handover);
  }

  /** AI rounds here when the session is ours (or free); else its owner is asked to continue. */
  kick(sessionId: string): void {
    this.ownership.kick(sessionId);
  }

  /** `!stop`/end: cuts this process's turns of the session. */
  abort(sessionId: string): void {
    this.rounds.abort(sessionId);
  }

  /** Shutdown: hands every session over (see Coordinator.shutdown), then waits for claims under way and every round to end. */
  async shutdown(): Promise<void> {
    await this.rounds.shutdown();
    await this.idle();
  }

  /** Also waits for claims and kicks under way: a round they start counts as work in flight. */
  async idle(sessionId?: string): Promise<void> {
    await this.ownership.settled();
    await this.rounds.idle(sessionId);
  }

  /** Sessions with a round in flight, and those whose claim is under way. */
  busySessions(): string[] {
    return [...new Set([...this.rounds.busySessions(), ...this.ownership.pendingSessions()])];
  }

  /** Clock sleeps armed as deadlines of the turns in flight (see Coordinator.deadlineSleepers). */
  get deadlineSleepers(): number {
    return this.rounds.deadlineSleepers;
  }
}
