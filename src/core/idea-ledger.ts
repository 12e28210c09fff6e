/** Plain data of the idea ledger (types only), shared by the repository, the services and the console. */

/** One distinct idea of a session. */
export interface Idea {
  sessionId: string;
  /** Per-session number: shown as `I<number>`. */
  number: number;
  title: string;
  summary: string;
  proposer: string;
  /** Speakers who built on it (supported, extended). */
  builders: string[];
  objectors: string[];
  messageIds: number[];
  /** How often it was extracted (1 + candidates merged into it). */
  mentions: number;
  /** The pass that first recorded it. */
  firstPass: number;
  embedding: number[] | null;
}

/** A side of a disagreement. */
export interface DisagreementSide {
  speakers: string[];
  position: string;
}

/** A disagreement or an open question of a session. */
export interface LedgerNote {
  sessionId: string;
  kind: 'disagreement' | 'open_question';
  text: string;
  /** Two sides for a disagreement; empty for a question. */
  sides: DisagreementSide[];
  messageIds: number[];
  firstPass: number;
  embedding: number[] | null;
}

/** One extraction pass (one Scribe interval with new messages): a "round" of the ledger. */
export interface LedgerPass {
  sessionId: string;
  number: number;
  lastMessageId: number;
  /** Messages the pass read. */
  messages: number;
  /** Idea candidates the extractor returned (valid ones). */
  candidates: number;
  newIdeas: number;
  /** Candidates merged into an idea already known. */
  duplicates: number;
  /** Objections (to an idea, or a new disagreement) not seen before. */
  newObjections: number;
  createdAt: Date;
}

/** Everything the ledger holds for a session. */
export interface SessionLedger {
  ideas: Idea[];
  notes: LedgerNote[];
  passes: LedgerPass[];
}
