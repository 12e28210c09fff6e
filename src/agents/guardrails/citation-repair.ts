import type { TldrOutput } from '../../core/schemas.ts';
import { citedNumbers } from './document-guardrails.ts';

/** A message a finding may cite: its number in the session and its text. */
export interface CitableMessage {
  number: number;
  text: string;
}

const WORD = /[\p{L}\p{N}]{4,}/gu;

function wordsOf(text: string): Set<string> {
  return new Set([...text.toLowerCase().matchAll(WORD)].map((match) => match[0]));
}

/** The message whose words overlap the finding's the most (null when nothing overlaps at all). */
function bestMatch(finding: string, messages: readonly CitableMessage[]): CitableMessage | null {
  const wanted = wordsOf(finding);
  let best: { message: CitableMessage; score: number } | null = null;
  for (const message of messages) {
    const words = wordsOf(message.text);
    let shared = 0;
    for (const word of wanted) if (words.has(word)) shared += 1;
    const score = shared / Math.max(1, Math.min(wanted.size, words.size));
    if (shared > 0 && (!best || score > best.score)) best = { message, score };
  }
  return best?.message ?? null;
}

/**
 * Makes a summary's citations true: ids that do not exist are dropped (and sources that are neither a message nor
 * a speaker), and a finding left citing nothing cites
 * the message its words match best. A model that will not cite (or invents ids) still yields a summary whose
 * every finding points at a real message, found by its content rather than made up; a finding that matches no
 * message is dropped.
 */
export function repairCitations(summary: TldrOutput, messages: readonly CitableMessage[], speakers: readonly string[] = []): TldrOutput {
  const known = new Set(messages.map((message) => message.number));
  const names = new Set(speakers.map((name) => name.toLowerCase()));
  // A source is a message that exists, or who said it; anything else a model put there ("sources 1 about…") is none.
  const isSource = (source: string) => {
    const numbers = citedNumbers([source]);
    return numbers.length > 0 ? numbers.every((number) => known.has(number)) : names.has(source.trim().toLowerCase());
  };
  const keyFindings = summary.keyFindings.flatMap((finding) => {
    const kept = finding.sources.filter(isSource);
    if (citedNumbers(kept).length > 0) return [{ ...finding, sources: kept }];
    const match = bestMatch(finding.finding, messages);
    return match ? [{ ...finding, sources: [...kept, `#${match.number}`] }] : [];
  });
  return { ...summary, keyFindings };
}
