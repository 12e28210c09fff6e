/**
 * The ports the session services offer one another. Each is implemented by one service and used by another that
 * is built before or after it; naming them here, below every service, keeps the arrows between services one way.
 */
import type { ChatMessage, Session } from './domain.ts';

/** What the idea ledger's review after a round did: closed the converged session, invited dissent, or nothing. */
export type LedgerReview = 'closed' | 'invited' | 'nothing';

/** What a person asked the discussion to focus on (`!focus disclosure timelines`), and who asked. */
export interface FocusRequest {
  text: string;
  by: string;
}

/** What the moderation module does for the session services. */
export interface ModerationPort {
  /**
   * After each round: checks drift, balance and progress every MODERATOR_CHECK_INTERVAL messages. Resolves true when
   * it may have changed the session (a check ran, something was posted, the session ended), so the caller reads it again.
   */
  afterRound(session: Session): Promise<boolean>;
  /** `!focus [what]`: refocus now (on what a person named, when they did); returns what to tell the person. */
  refocus(session: Session, focus?: FocusRequest | null): Promise<string>;
  /** The wrap-up chain (assessment, final record, summary, closing message). */
  wrapUp(session: Session, reason: string): Promise<void>;
}

/** What the documentation module needs to hear from the session services. */
export interface DocumentationHooks {
  /** A message was stored; schedule a (debounced) Scribe pass. */
  onMessage(sessionId: string): Promise<void>;
}

/** Ends a session (implemented by the session lifecycle). */
export interface SessionEnder {
  end(sessionId: string, status: 'completed' | 'stopped' | 'cancelled', reason: string): Promise<void>;
}

/** How a person's message is handed over to be answered. */
export interface HumanMessageHandover {
  /**
   * `session` is the row the message's own count returned: nothing this process did to the session since can be
   * newer, so a loop that starts for the message goes on with it instead of reading it again.
   */
  counted?: boolean;
  /**
   * The person wrote faster than the room answers (see FloodGate): the message counts nothing and preempts nothing. It
   * rides with the next round that reads it, and starts one only when no round that read it comes.
   */
  folded?: boolean;
}

/** Where a person's message goes to be answered (implemented by the coordinator). */
export interface TurnTaking {
  onHumanMessage(session: Session, message: ChatMessage, handover?: HumanMessageHandover): void;
}

/** The Moderator's hints for a session's next round (written by moderation and the idea ledger, read by the coordinator). */
export interface SpeakerHintsPort {
  /** Let `name` speak in the next round (after an invitation). */
  invite(sessionId: string, name: string): void;
  /** Skip `name` in the next round (after a hold). */
  hold(sessionId: string, name: string): void;
}

/** A link to a session document for the closing message. */
export interface DocumentLink {
  label: string;
  url: string;
  /** Where the markdown file lies on the host, when the link shows a local document. */
  file?: string;
}

/** Turns text into vectors (`ModelCatalog.embed`); null when embeddings are unavailable. */
export type EmbedFunction = (texts: string[]) => Promise<number[][] | null>;
