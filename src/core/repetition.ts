/**
 * Whether an answer repeats one said before. Models stuck in a loop (small or local ones above all, and any model
 * once a discussion stalls) post the same answer round after round, each costing a call and a message of the
 * room's budget while adding nothing.
 */

/** How many of a participant's latest answers its new one is compared with. */
export const LATEST_ANSWERS_COMPARED = 3;
/** Share of an answer's word triples already in an earlier answer that makes it a repeat of that one. */
export const REPEAT_SHARE = 0.9;
/** Answers shorter than this (in words) are never taken for repeats: "Agreed, ship it." may fairly come twice. */
const MIN_WORDS = 8;

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function triplesOf(words: readonly string[]): Set<string> {
  const triples = new Set<string>();
  for (let index = 0; index + 2 < words.length; index += 1) triples.add(`${words[index]} ${words[index + 1]} ${words[index + 2]}`);
  return triples;
}

/**
 * A check of answers against `earlier`, whose word triples are read once: it returns the newest of `earlier` that an
 * answer repeats (most of the answer's word triples are already in it; an answer that only says part of an earlier
 * one again repeats it too, one that adds a tenth of new words does not), or null.
 */
export function repetitionCheck<T extends { text: string }>(earlier: readonly T[]): (answer: string) => T | null {
  const said = earlier.map((candidate) => ({ candidate, triples: triplesOf(wordsOf(candidate.text)) })).reverse();
  return (answer) => {
    const words = wordsOf(answer);
    if (words.length < MIN_WORDS) return null;
    const triples = triplesOf(words);
    for (const { candidate, triples: before } of said) {
      let shared = 0;
      for (const triple of triples) if (before.has(triple)) shared += 1;
      if (shared / triples.size >= REPEAT_SHARE) return candidate;
    }
    return null;
  };
}

/** The newest of `earlier` that `answer` repeats, or null (see `repetitionCheck`). */
export function repeatedAnswer<T extends { text: string }>(answer: string, earlier: readonly T[]): T | null {
  return repetitionCheck(earlier)(answer);
}
