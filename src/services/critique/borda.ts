/** Reading a reviewer's answer leniently, and the aggregate ranking by Borda count. */
import type { CritiqueBallot, CritiqueStanding, WeakestAssumption } from '../../core/critique.ts';

/** A critique as a model answered it (labels in any spelling, possibly partial). */
export interface RawCritique {
  ranking: readonly string[];
  weakestAssumptions: readonly { proposal: string; assumption: string }[];
  reason: string;
}

/** The label a model meant: "B", "b", "Proposal B", "proposal_b", "(B)" — or null. */
export function labelOf(text: string, labels: readonly string[]): string | null {
  const cleaned = text
    .trim()
    .replace(/^proposal[\s_:-]*/i, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();
  return labels.find((label) => label === cleaned) ?? null;
}

/**
 * A ballot from a raw critique: known labels only, each once, best first. Null when it ranks nothing, since
 * an empty ballot says nothing. Unranked labels stay unranked (Borda shares their points, see `bordaCount`).
 */
export function normaliseBallot(participant: string, raw: RawCritique, labels: readonly string[]): CritiqueBallot | null {
  const ranking: string[] = [];
  for (const entry of raw.ranking) {
    const label = labelOf(entry, labels);
    if (label && !ranking.includes(label)) ranking.push(label);
  }
  if (ranking.length === 0) return null;
  const weakestAssumptions: WeakestAssumption[] = [];
  for (const entry of raw.weakestAssumptions) {
    const label = labelOf(entry.proposal, labels);
    const assumption = entry.assumption.trim();
    if (label && assumption && !weakestAssumptions.some((known) => known.label === label)) weakestAssumptions.push({ label, assumption });
  }
  return { participant, ranking, weakestAssumptions, reason: raw.reason.trim() };
}

/**
 * Borda count: on a ballot over n proposals the first gets n-1 points, the next n-2… the last 0. Proposals a
 * ballot left out share the points of the places left (their average), so a partial ballot neither rewards
 * nor punishes them. Ordered by points, then first places; equal on both share a place.
 */
export function bordaCount(ballots: readonly CritiqueBallot[], labels: readonly string[]): CritiqueStanding[] {
  const n = labels.length;
  const points = new Map(labels.map((label) => [label, 0]));
  const firsts = new Map(labels.map((label) => [label, 0]));
  for (const ballot of ballots) {
    const ranked = ballot.ranking.filter((label) => points.has(label));
    ranked.forEach((label, index) => points.set(label, (points.get(label) ?? 0) + (n - 1 - index)));
    const first = ranked[0];
    if (first) firsts.set(first, (firsts.get(first) ?? 0) + 1);
    const unranked = labels.filter((label) => !ranked.includes(label));
    // The places left are n-k-1 … 0: their average is (n-k-1)/2.
    const share = unranked.length > 0 ? (n - ranked.length - 1) / 2 : 0;
    for (const label of unranked) points.set(label, (points.get(label) ?? 0) + share);
  }
  const ordered = [...labels].sort(
    (a, b) => (points.get(b) ?? 0) - (points.get(a) ?? 0) || (firsts.get(b) ?? 0) - (firsts.get(a) ?? 0) || labels.indexOf(a) - labels.indexOf(b),
  );
  const standings: CritiqueStanding[] = [];
  ordered.forEach((label, index) => {
    const previous = standings[index - 1];
    const score = { points: points.get(label) ?? 0, firstPlaces: firsts.get(label) ?? 0 };
    const tied = previous !== undefined && previous.points === score.points && previous.firstPlaces === score.firstPlaces;
    standings.push({ place: tied ? previous.place : index + 1, label, ...score });
  });
  return standings;
}
