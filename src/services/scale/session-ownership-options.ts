/** What the session owner needs: this process's rounds, the leases, and its timing. */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { HumanMessageHandover } from '../../core/service-ports.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionLeasesRepository } from '../../repositories/session-leases-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { StalledSessions } from '../coordinator/stalled-sessions.ts';

/** The coordinator of this process, reached without the ownership check (the owner's own calls). */
export interface LocalRounds {
  onHumanMessage(session: Session, message: ChatMessage, handover?: HumanMessageHandover): void;
  kick(sessionId: string): void;
  abort(sessionId: string, reason?: 'stopped' | 'handed_over'): void;
  /** The session was paused: no round starts after the answers being written. */
  pause(sessionId: string): void;
  /** Sessions whose rounds an unreachable database stopped: resumed here once a pass reaches it again. */
  readonly stalled: Pick<StalledSessions, 'list' | 'resumed'>;
}

/** Wake-ups between the processes that share sessions (a poll still finds whatever a lost notice leaves). */
export interface SessionSignals {
  /**
   * Tells the session's owner, in whichever process, to look at it now: a person's message stored here, `!continue`
   * requested on its lease, or its pause or end decided here.
   */
  callOwner(sessionId: string): void;
  /** Calls `onSession` for each such notice from any process; returns the function that stops it. */
  onOwnerCalled(onSession: (sessionId: string) => void): () => void;
}

/** What the ownership keeper needs. */
export interface SessionOwnershipOptions {
  /** This process's worker instance id: a lease names it, and a stopped instance's leases are free. */
  ownerId: string;
  /** The rounds of this process: a session this process holds is run there. */
  rounds: LocalRounds;
  leases: Pick<SessionLeasesRepository, 'acquire' | 'renew' | 'release' | 'requestKick' | 'ownerPass' | 'orphans' | 'lastMessageId'>;
  sessions: Pick<SessionsRepository, 'findById'>;
  messages: Pick<MessagesRepository, 'findById' | 'listRecent'>;
  clock: Clock;
  logger: Logger;
  /** Whether this process may run the session (its transport is here; its Discord shard is ours). */
  canOwn: (session: Session) => Promise<boolean>;
  /** Whether a resumed session with nobody to answer may go on with AI rounds (false at the loop guard). */
  mayContinue: (session: Session) => boolean;
  /** Told of each session whose lease this process takes, before it resumes it (its room is swept of strays). */
  taken?: (session: Session) => void;
  /** How long a lease lasts unless renewed (renewed at a third of it). */
  leaseMs?: number;
  /** How often the owner looks for people's messages stored elsewhere, kicks, lost leases and orphans (real time). */
  pollMs?: number;
  /** Notices that spare the owner the wait for its next poll when another process stored or decided something for a session it holds. */
  signals?: SessionSignals;
}

/** Default lease length and poll interval. */
export const OWNERSHIP_TIMING = { leaseMs: 15_000, pollMs: 1_000 } as const;
