/** A critique round as text: each reviewer's short message, the room's ranking, the documents' section. */
import { BALLOT_OPENING, type CritiqueBallot, type CritiqueProposal, type CritiqueRound, type CritiqueStanding } from '../../core/critique.ts';

/** The heading the round owns in the record and the TLDR (replaced on every write, never duplicated). */
export const CRITIQUE_HEADING = 'Critique round';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const points = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** 1st, 2nd, 3rd, 4th… (a bullet, not a numbered list: Notion and Discord renumber those, and lose ties). */
export function ordinal(place: number): string {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th');
  return `${place}${suffix}`;
}

/** A reviewer's critique as its own short message in the room (labels only: the names were hidden from it). */
export function ballotMessage(ballot: CritiqueBallot): string {
  const top = ballot.ranking[0] ?? '';
  const weakest = ballot.weakestAssumptions.find((entry) => entry.label === top) ?? ballot.weakestAssumptions[0];
  const parts = [`${BALLOT_OPENING} ${ballot.ranking.map((label) => `Proposal ${label}`).join(' > ')}.`];
  if (ballot.reason) parts.push(ballot.reason);
  if (weakest) parts.push(`Weakest assumption of Proposal ${weakest.label}: ${weakest.assumption}`);
  return parts.join(' ');
}

function proposalOf(round: Pick<CritiqueRound, 'proposals'>, label: string): CritiqueProposal | undefined {
  return round.proposals.find((proposal) => proposal.label === label);
}

function standingLine(round: CritiqueRound, standing: CritiqueStanding): string {
  const proposal = proposalOf(round, standing.label);
  const idea = proposal ? ` — I${proposal.ideaNumber} ${proposal.title}${proposal.proposer ? ` (proposed by ${proposal.proposer})` : ''}` : '';
  return `- **${ordinal(standing.place)}: Proposal ${standing.label}**${idea}: ${points(standing.points)} point${standing.points === 1 ? '' : 's'}, ${plural(standing.firstPlaces, 'first place')}`;
}

/** The weakest assumptions named for a proposal, with who named them. */
function assumptionLines(round: CritiqueRound, label: string): string[] {
  return round.ballots.flatMap((ballot) =>
    ballot.weakestAssumptions.filter((entry) => entry.label === label).map((entry) => `  - weakest assumption (${ballot.participant}): ${entry.assumption}`),
  );
}

/** The ranking lines with the weakest assumptions under each proposal. */
export function rankingLines(round: CritiqueRound): string[] {
  return round.standings.flatMap((standing) => [standingLine(round, standing), ...assumptionLines(round, standing.label)]);
}

function failureLine(round: CritiqueRound): string | null {
  if (round.failures.length === 0) return null;
  return `Not counted: ${round.failures.map((failure) => `${failure.participant} (${failure.reason})`).join('; ')}.`;
}

/** The one message the room gets: the aggregate ranking (or why there is none). */
export function roundMessage(round: CritiqueRound): string {
  if (round.skippedReason) return `**Critique round** skipped: ${round.skippedReason}.`;
  if (round.ballots.length === 0) return `**Critique round**: no critique could be read, so there is no ranking. ${failureLine(round) ?? ''}`.trim();
  const head = `**Critique round** — aggregate ranking (Borda count over ${plural(round.ballots.length, 'anonymous critique')}; authors were hidden from the reviewers):`;
  return [head, ...rankingLines(round), failureLine(round)].filter((line): line is string => line !== null).join('\n');
}

/** The round's section for the record and the TLDR. */
export function critiqueSection(round: CritiqueRound): string {
  const intro = round.skippedReason
    ? `Skipped: ${round.skippedReason}.`
    : `Each participant ranked the leading proposals with their authors hidden; the ranking below is their Borda count (${plural(round.ballots.length, 'critique')}).`;
  const lines = round.skippedReason || round.ballots.length === 0 ? [] : rankingLines(round);
  const failures = failureLine(round);
  return [`## ${CRITIQUE_HEADING}`, '', intro, ...(lines.length > 0 ? ['', ...lines] : []), ...(failures ? ['', failures] : [])].join('\n');
}

/** Removes the round's section from a document (a model may have copied it from the previous version). */
export function stripCritiqueSection(markdown: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of markdown.split('\n')) {
    // Trailing spaces cut first: a lazy title before `\s*$` scanned the rest of a run of spaces at each step (quadratic).
    const heading = /^(#{1,2})\s+(\S.*)$/.exec(line.trimEnd());
    if (heading) skipping = heading[1] === '##' && (heading[2] ?? '').toLowerCase() === CRITIQUE_HEADING.toLowerCase();
    if (!skipping) kept.push(line);
  }
  return kept.join('\n').trimEnd();
}

/** A document with the round's section (re)placed at its end. */
export function withCritiqueSection(markdown: string, round: CritiqueRound): string {
  return `${stripCritiqueSection(markdown)}\n\n${critiqueSection(round)}\n`;
}

/** What the wrap-up (and so the TLDR) reads about the round. */
export function wrapUpNote(round: CritiqueRound): string {
  if (round.skippedReason || round.ballots.length === 0) return '';
  return ['Critique round before this wrap-up (aggregate ranking of the leading proposals, Borda count):', ...rankingLines(round)].join('\n');
}
