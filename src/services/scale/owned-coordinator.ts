/** The coordinator of a process that shares the sessions with others: rounds run only where the session is leased. */
import { Coordinator, type CoordinatorOptions } from '../coordinator/coordinator.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { SessionOwnership } from './session-ownership.ts';

/**
 * A Coordinator whose entry points go through the session's lease: a person's message or a kick for a session owned
 * by another process is left to that process (stored messages are polled, kicks requested on the lease).
 */
export class OwnedCoordinator extends Coordinator {
  constructor(
    options: CoordinatorOptions,
    private readonly ownership: SessionOwnership,
  ) {
    super(options);
    ownership.attach({
      human: (session, message) => super.onHumanMessage(session, message),
      kick: (sessionId) => super.kick(sessionId),
      abort: (sessionId) => super.abort(sessionId),
    });
  }

  /** Answered here when this process holds (or can take) the session's lease; else its owner picks it up. */
  override onHumanMessage(session: Session, message: ChatMessage): void {
    this.ownership.human(session, message);
  }

  /** AI rounds here when the session is ours (or free); else its owner is asked to continue. */
  override kick(sessionId: string): void {
    this.ownership.kick(sessionId);
  }

  /** Also waits for claims and kicks under way: a round they start counts as work in flight. */
  override async idle(sessionId?: string): Promise<void> {
    await this.ownership.settled();
    await super.idle(sessionId);
  }

  /** Sessions with a round in flight, and those whose claim is under way. */
  override busySessions(): string[] {
    return [...new Set([...super.busySessions(), ...this.ownership.pendingSessions()])];
  }
}
