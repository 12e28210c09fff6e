/** Plain data of a critique round, shared by the repository, the services and the console. */

/** A leading proposal of the idea ledger as the reviewers saw it: a label, and text without any speaker's name. */
export interface CritiqueProposal {
  /** "A", "B", "C"… (shown as "Proposal A"). */
  label: string;
  /** The ledger idea it stands for (`I<number>`), revealed only after the round. */
  ideaNumber: number;
  title: string;
  summary: string;
  /** Who proposed it (never shown to the reviewers). */
  proposer: string;
}

/** The weakest assumption a reviewer named for one proposal. */
export interface WeakestAssumption {
  label: string;
  assumption: string;
}

/** One participant's critique, normalised: every label ranked once, best first. */
export interface CritiqueBallot {
  participant: string;
  ranking: string[];
  weakestAssumptions: WeakestAssumption[];
  reason: string;
}

/** A participant whose critique could not be used, and why. */
export interface CritiqueFailure {
  participant: string;
  reason: string;
}

/** One proposal's place in the aggregate (Borda) ranking. */
export interface CritiqueStanding {
  /** 1 for the best; proposals with equal points and first places share a place. */
  place: number;
  label: string;
  points: number;
  firstPlaces: number;
}

/** A session's critique round: what was reviewed, the ballots, who failed, and the aggregate ranking. */
export interface CritiqueRound {
  sessionId: string;
  proposals: CritiqueProposal[];
  ballots: CritiqueBallot[];
  failures: CritiqueFailure[];
  standings: CritiqueStanding[];
  /** Why the round did not run (too few proposals, the session was stopped), or null when it ran. */
  skippedReason: string | null;
  createdAt: Date;
}

/** How a reviewer's ballot message opens in the room (under the reviewer's own name). */
export const BALLOT_OPENING = '**My ranking:**';

/** True for a critique ballot the app posted for a participant: it ranks the ledger's ideas and is no idea itself. */
export function isCritiqueBallot(text: string): boolean {
  return text.startsWith(BALLOT_OPENING);
}
