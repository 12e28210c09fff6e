/** The leading proposals of a ledger, labelled and stripped of every speaker's name, for anonymous review. */
import type { CritiqueProposal } from '../../core/critique.ts';
import type { Idea } from '../../core/idea-ledger.ts';
import { escapeForPattern } from '../../core/speaker-label.ts';

/** Proposals a round reviews at most. */
export const MAX_PROPOSALS = 4;

/** What stands in for a speaker's name inside a proposal's text. */
export const NAME_PLACEHOLDER = 'a participant';

/** Support of an idea: distinct speakers who built on it, less those who objected. */
export function supportOf(idea: Pick<Idea, 'proposer' | 'builders' | 'objectors'>): number {
  const builders = new Set(idea.builders.filter((name) => name !== idea.proposer));
  return builders.size - new Set(idea.objectors).size;
}

/**
 * The `max` ideas with the most support (ties: more mentions, then the older idea), in ledger order, so a label
 * says nothing about how much support its idea had.
 */
export function leadingIdeas(ideas: readonly Idea[], max = MAX_PROPOSALS): Idea[] {
  const ranked = [...ideas].sort((a, b) => supportOf(b) - supportOf(a) || b.mentions - a.mentions || a.number - b.number);
  return ranked.slice(0, max).sort((a, b) => a.number - b.number);
}

/** "A", "B", … "Z", then "AA"… (a round never needs that many). */
export function labelAt(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : `${labelAt(Math.floor(index / 26) - 1)}${letter}`;
}

/**
 * Replaces every name in `text` (whole words, any case, possessives and bracketed `[Name]` included) with a
 * neutral placeholder; longer names first, so "Claude Opus" goes before "Claude".
 */
export function scrubNames(text: string, names: readonly string[]): string {
  const distinct = [...new Set(names.map((name) => name.trim()).filter((name) => name.length > 1))].sort((a, b) => b.length - a.length);
  if (distinct.length === 0) return text;
  const pattern = new RegExp(`\\[?(?<![\\p{L}\\p{N}_])(?:${distinct.map(escapeForPattern).join('|')})(?![\\p{L}\\p{N}_])\\]?`, 'giu');
  return text.replace(pattern, NAME_PLACEHOLDER);
}

/** Labels the leading ideas "A", "B"… and keeps only their title and summary, with every known name scrubbed. */
export function anonymiseProposals(ideas: readonly Idea[], names: readonly string[]): CritiqueProposal[] {
  const everyName = [...names, ...ideas.flatMap((idea) => [idea.proposer, ...idea.builders, ...idea.objectors])];
  return ideas.map((idea, index) => ({
    label: labelAt(index),
    ideaNumber: idea.number,
    title: scrubNames(idea.title, everyName),
    summary: scrubNames(idea.summary, everyName),
    proposer: idea.proposer,
  }));
}

/** The list a reviewer reads: "Proposal A: title — summary", nothing else. */
export function reviewList(proposals: readonly CritiqueProposal[]): string {
  return proposals.map((proposal) => `Proposal ${proposal.label}: ${proposal.title}\n${proposal.summary}`).join('\n\n');
}
