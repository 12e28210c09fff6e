/** A participant that could speak now, with how much it has spoken. */
export interface SpeakerCandidate {
  id: string;
  spokenCount: number;
  /** Id of its latest message in the session, 0 if it has not spoken. */
  lastMessageId: number;
}

/**
 * Picks at most `max` speakers fairly: whoever has spoken least first, then whoever spoke longest ago, then a
 * rotation that moves with `rotation` — so with more participants than seats nobody is always left out.
 */
export function selectSpeakers(candidates: SpeakerCandidate[], max: number, rotation: number): string[] {
  const count = candidates.length;
  if (count === 0 || max <= 0) return [];
  const ranked = candidates
    .map((candidate, index) => ({ candidate, rotated: (index - (rotation % count) + count) % count }))
    .sort((a, b) => a.candidate.spokenCount - b.candidate.spokenCount || a.candidate.lastMessageId - b.candidate.lastMessageId || a.rotated - b.rotated);
  return ranked.slice(0, max).map((entry) => entry.candidate.id);
}
