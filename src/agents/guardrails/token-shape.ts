/**
 * How random a token looks: the test that tells a generated key from words, identifiers, version strings and the
 * hashes people discuss. Tuned on the corpus in tests/unit/agents/guardrails/secret-corpus.test.ts.
 */

/** Character classes present in a token and how it is built. */
interface TokenStats {
  length: number;
  upper: number;
  lower: number;
  digits: number;
  /** Shannon entropy in bits per character. */
  entropy: number;
  /** The longest run of lowercase letters (words give long runs; random text rarely does). */
  longestLowerRun: number;
}

function statsOf(token: string): TokenStats {
  const counts = new Map<string, number>();
  let upper = 0;
  let lower = 0;
  let digits = 0;
  let run = 0;
  let longestLowerRun = 0;
  for (const char of token) {
    counts.set(char, (counts.get(char) ?? 0) + 1);
    if (char >= 'A' && char <= 'Z') upper += 1;
    else if (char >= 'a' && char <= 'z') lower += 1;
    else if (char >= '0' && char <= '9') digits += 1;
    run = char >= 'a' && char <= 'z' ? run + 1 : 0;
    longestLowerRun = Math.max(longestLowerRun, run);
  }
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / token.length;
    entropy -= share * Math.log2(share);
  }
  return { length: token.length, upper, lower, digits, entropy, longestLowerRun };
}

/** The entropy a random draw of `length` characters from 62 would reach, less a margin for short tokens. */
function expectedEntropy(length: number): number {
  return Math.log2(Math.min(length, 62)) * 0.8;
}

/**
 * True when the body after a key prefix (`sk-`, `xai-`, ...) is random rather than words: letters and digits,
 * no long word-like runs, some entropy. `mixedCase` demands both cases (base62 keys).
 */
export function looksRandom(body: string, options: { mixedCase?: boolean } = {}): boolean {
  const compact = body.replace(/[-_]/g, '');
  const stats = statsOf(compact);
  if (stats.length < 16 || stats.digits === 0 || stats.upper + stats.lower === 0) return false;
  if (options.mixedCase && (stats.upper === 0 || stats.lower === 0)) return false;
  if (stats.longestLowerRun > 12) return false;
  // The prefix already says "key": a low bar on entropy only keeps out words with digits.
  return stats.entropy >= Math.min(3, expectedEntropy(stats.length));
}

/** Known public, non-secret tokens people paste while discussing: content ids, subresource integrity, ssh public keys. */
const PUBLIC_KEY_CONTEXT = /(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+)\s+$/;
const PUBLIC_HASH = /^sha(?:256|384|512)-/;
const CONTENT_ID = /^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|bafy[a-z2-7]{50,})$/;

/** A candidate for a key without a known prefix: a long run of base64/base62 characters. */
const CANDIDATE = /[A-Za-z0-9+/_-]{32,}={0,2}/g;
// A word that is no scheme is taken whole (and dropped), as each later letter of it fails too: each read an `a.b.c…` run to its end.
const URL = /\b[a-z][a-z0-9+.-]*(?::\/\/[^\s<>()]+)?/gi;

/**
 * Spans of `text` that look like generated secrets without a known prefix: at least 32 characters with upper and
 * lower case letters and digits, high entropy, no word-like runs. URLs, content ids, ssh public keys and
 * subresource-integrity hashes are left alone; hex hashes never qualify (one case only).
 */
export function findHighEntropyTokens(text: string): { start: number; end: number }[] {
  const urls = [...text.matchAll(URL)].filter((match) => match[0].includes('://')).map((match) => ({ start: match.index, end: match.index + match[0].length }));
  const found: { start: number; end: number }[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    const end = start + match[0].length;
    // Inside a URL only a query value counts (`?token=...`); paths hold document ids, not keys.
    if (urls.some((url) => url.start <= start && url.end >= end) && text[start - 1] !== '=') continue;
    const token = match[0].replace(/^[-_/+=]+|[-_/+=]+$/g, '');
    if (CONTENT_ID.test(token) || PUBLIC_HASH.test(token) || PUBLIC_KEY_CONTEXT.test(text.slice(Math.max(0, start - 24), start))) continue;
    if (isGeneratedLooking(token)) found.push({ start, end });
  }
  return found;
}

function isGeneratedLooking(token: string): boolean {
  // Paths and dotted identifiers split into their parts; a key is one unbroken random run.
  const parts = token.split('/').filter((part) => part.length >= 32);
  return parts.some((part) => {
    const stats = statsOf(part.replace(/[-_=+]/g, ''));
    if (stats.length < 30 || stats.upper < 3 || stats.lower < 3 || stats.digits < 3) return false;
    if (stats.longestLowerRun > 12) return false;
    return stats.entropy >= Math.max(4.2, expectedEntropy(stats.length));
  });
}
