/** The ledger's figures, as pure functions (the README defines them; the bench and the console print them). */
import type { Idea, LedgerPass } from '../../core/idea-ledger.ts';

/** Trailing passes, newest first, that added no new idea and no new objection. */
export function roundsWithoutNewIdea(passes: readonly LedgerPass[]): number {
  let count = 0;
  for (let index = passes.length - 1; index >= 0; index -= 1) {
    const pass = passes[index];
    if (!pass || pass.newIdeas > 0 || pass.newObjections > 0) break;
    count += 1;
  }
  return count;
}

/** Whether the room converged: at least `threshold` trailing rounds without a new idea or objection, after some idea. */
export function isConverged(passes: readonly LedgerPass[], threshold: number): boolean {
  const hadIdeas = passes.some((pass) => pass.newIdeas > 0);
  return hadIdeas && threshold > 0 && roundsWithoutNewIdea(passes) >= threshold;
}

/** `rounds_without_new_idea_at_close`: the trailing count over the passes stored before the session ended. */
export function roundsWithoutNewIdeaAtClose(passes: readonly LedgerPass[], endedAt: Date | null): number | null {
  if (!endedAt) return null;
  return roundsWithoutNewIdea(passes.filter((pass) => pass.createdAt.getTime() <= endedAt.getTime()));
}

/**
 * `agreement_ratio`: reactions that built on an idea over all reactions (built on + objected), across the
 * ledger. Null while nobody reacted to anything.
 */
export function agreementRatio(ideas: readonly Idea[]): number | null {
  const built = ideas.reduce((total, idea) => total + idea.builders.length, 0);
  const objected = ideas.reduce((total, idea) => total + idea.objectors.length, 0);
  return built + objected === 0 ? null : built / (built + objected);
}

/** `ideas_per_100_messages`: distinct ideas per 100 discussion messages read by the ledger. */
export function ideasPer100Messages(ideas: readonly Idea[], passes: readonly LedgerPass[]): number {
  const messages = passes.reduce((total, pass) => total + pass.messages, 0);
  return messages === 0 ? 0 : (ideas.length / messages) * 100;
}

/** `duplicate_idea_ratio`: idea candidates merged into an idea already known, over all candidates. */
export function duplicateIdeaRatio(passes: readonly LedgerPass[]): number {
  const candidates = passes.reduce((total, pass) => total + pass.candidates, 0);
  const duplicates = passes.reduce((total, pass) => total + pass.duplicates, 0);
  return candidates === 0 ? 0 : duplicates / candidates;
}

/** Whether the room only agrees: enough reactions, and the agreement ratio at or above `threshold`. */
export function onlyAgrees(ideas: readonly Idea[], threshold: number, minimumReactions: number): boolean {
  const reactions = ideas.reduce((total, idea) => total + idea.builders.length + idea.objectors.length, 0);
  const ratio = agreementRatio(ideas);
  return ratio !== null && reactions >= minimumReactions && ratio >= threshold;
}

/** The figures of one session, for the console panel and the bench. */
export interface LedgerFigures {
  ideas: number;
  ideasPer100Messages: number;
  duplicateIdeaRatio: number;
  agreementRatio: number | null;
  roundsWithoutNewIdea: number;
  roundsWithoutNewIdeaAtClose: number | null;
}

/** Computes every figure of a session's ledger. */
export function ledgerFigures(ideas: readonly Idea[], passes: readonly LedgerPass[], endedAt: Date | null): LedgerFigures {
  return {
    ideas: ideas.length,
    ideasPer100Messages: ideasPer100Messages(ideas, passes),
    duplicateIdeaRatio: duplicateIdeaRatio(passes),
    agreementRatio: agreementRatio(ideas),
    roundsWithoutNewIdea: roundsWithoutNewIdea(passes),
    roundsWithoutNewIdeaAtClose: roundsWithoutNewIdeaAtClose(passes, endedAt),
  };
}
