import type { Session } from '../../core/domain.ts';

/** What the moderation module does for the session services (a basic version serves until it is wired). */
export interface ModerationPort {
  /** After each round: checks drift, balance and progress every MODERATOR_CHECK_INTERVAL messages. */
  afterRound(session: Session): Promise<void>;
  /** `!focus`: refocus now; returns what to tell the person. */
  refocus(session: Session): Promise<string>;
  /** The wrap-up chain (assessment, final record, summary, closing message). */
  wrapUp(session: Session, reason: string): Promise<void>;
}

/** What the documentation module needs to hear from the session services. */
export interface DocumentationHooks {
  /** A message was stored; schedule a (debounced) Scribe pass. */
  onMessage(sessionId: string): Promise<void>;
}
