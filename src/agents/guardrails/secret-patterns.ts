/**
 * Recognises credentials pasted into text. Only the KIND of a secret ever leaves this module: callers
 * store, log and trace kinds, never the matched value.
 */
import { foldForScan } from './scan-normalizer.ts';
import { findHighEntropyTokens, looksRandom } from './token-shape.ts';

/** A kind of credential we recognise. */
export type SecretKind =
  | 'openrouter_api_key'
  | 'anthropic_api_key'
  | 'openai_api_key'
  | 'xai_api_key'
  | 'notion_token'
  | 'discord_bot_token'
  | 'aws_access_key'
  | 'aws_secret_key'
  | 'private_key'
  | 'jwt'
  | 'github_token'
  | 'google_api_key'
  | 'slack_token'
  | 'stripe_key'
  | 'credential_assignment'
  | 'high_entropy_token'
  | 'configured_secret';

interface SecretPattern {
  kind: SecretKind;
  pattern: RegExp;
  /** Tells a real key from look-alike words; gets the whole match and the text after it. */
  accept?: (match: RegExpExecArray, after: string) => boolean;
}

const randomBody =
  (prefix: RegExp, mixedCase = true) =>
  (match: RegExpExecArray) =>
    looksRandom(match[0].replace(prefix, ''), { mixedCase });

// No `\b` anchors: a key glued to a word character (`x_sk-...`, `..._prod`) is still a key. The `accept` checks
// keep prefixes inside ordinary words (`risk-assessment-...`, `ASIAPACIFIC...`) from counting.
// Order matters: the more specific prefixes (sk-or-v1-, sk-ant-) come before the generic sk- pattern.
const SECRET_PATTERNS: readonly SecretPattern[] = [
  { kind: 'openrouter_api_key', pattern: /sk-or-v1-[A-Za-z0-9]{32,}/g },
  { kind: 'anthropic_api_key', pattern: /sk-ant-[A-Za-z0-9_-]{20,}/g, accept: randomBody(/^sk-ant-(?:api\d+-|admin\d+-)?/) },
  { kind: 'openai_api_key', pattern: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: randomBody(/^sk-(?:proj-|svcacct-|admin-)?/) },
  { kind: 'xai_api_key', pattern: /xai-[A-Za-z0-9]{20,}/g, accept: randomBody(/^xai-/) },
  { kind: 'notion_token', pattern: /(?:ntn|secret)_[A-Za-z0-9]{30,}/g, accept: randomBody(/^(?:ntn|secret)_/, false) },
  {
    kind: 'discord_bot_token',
    // Only where a run of token characters starts (a token found further in matches from there too): each start read a dotless run to its end.
    pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g,
    accept: (match) => looksRandom(match[0].replace(/\./g, ''), { mixedCase: true }),
  },
  // Access key ids are base32: an id without a digit counts only when it ends where the id ends.
  { kind: 'aws_access_key', pattern: /(?:AKIA|ASIA)[A-Z0-9]{16}/g, accept: (match, after) => /\d/.test(match[0]) || !/^[A-Z0-9]/.test(after) },
  { kind: 'aws_secret_key', pattern: /aws_secret_access_key\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/gi },
  { kind: 'private_key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  // An `eyJ` starting no token takes the rest of its run (refused: no dot), as each later `eyJ` there fails too: each read it to its end.
  { kind: 'jwt', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|eyJ[A-Za-z0-9_-]*/g, accept: (match) => match[0].includes('.') },
  { kind: 'github_token', pattern: /(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g, accept: randomBody(/^(?:gh[pousr]_|github_pat_)/, false) },
  { kind: 'google_api_key', pattern: /AIza[0-9A-Za-z_-]{35}/g },
  { kind: 'slack_token', pattern: /xox[abposr]-[A-Za-z0-9-]{10,}/g, accept: (match) => /\d/.test(match[0]) },
  { kind: 'stripe_key', pattern: /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  {
    kind: 'credential_assignment',
    pattern:
      /(?:api[_-]?key|access[_-]?token|auth[_-]?token|bot[_-]?token|client[_-]?secret|password|passwd|secret[_-]?key)\s*[:=]\s*["']?[A-Za-z0-9_\-./+=]{16,}/gi,
    // A value, not a reference to one (`process.env.OPENROUTER_API_KEY`, `settings.apiKey`): it carries a digit.
    accept: (match) => /\d/.test(match[0].replace(/^[^:=]*[:=]/, '')),
  },
];

/** What was found in a text: the kinds and how many matches, never the values. */
export interface SecretScan {
  kinds: SecretKind[];
  count: number;
}

interface SecretMatch {
  kind: SecretKind;
  start: number;
  end: number;
}

function findShapes(text: string): SecretMatch[] {
  const matches: SecretMatch[] = [];
  const covered = (start: number, end: number) => matches.some((found) => found.start <= start && found.end >= end);
  for (const { kind, pattern, accept } of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      // A longer, more specific match already covers this span (sk-or-v1-... also matches sk-...).
      if (covered(start, end)) continue;
      if (accept && !accept(match as RegExpExecArray, text.slice(end))) continue;
      matches.push({ kind, start, end });
    }
  }
  for (const { start, end } of findHighEntropyTokens(text)) {
    if (!matches.some((found) => found.start < end && found.end > start)) matches.push({ kind: 'high_entropy_token', start, end });
  }
  return matches;
}

function findKnown(text: string, knownSecrets: readonly string[]): SecretMatch[] {
  const matches: SecretMatch[] = [];
  for (const secret of knownSecrets) {
    if (secret.length < 8) continue;
    let index = text.indexOf(secret);
    while (index >= 0) {
      matches.push({ kind: 'configured_secret', start: index, end: index + secret.length });
      index = text.indexOf(secret, index + secret.length);
    }
  }
  return matches;
}

/**
 * Every credential in `text`, with positions in the ORIGINAL text. The scan runs on the folded text (no
 * zero-width characters, look-alikes or fullwidth forms), so a key disguised by them is still found.
 */
function findMatches(text: string, knownSecrets: readonly string[]): SecretMatch[] {
  const folded = foldForScan(text);
  const known = knownSecrets.map((secret) => foldForScan(secret).text);
  const endOf = (foldedEnd: number): number => {
    const last = folded.origin[foldedEnd - 1];
    if (last === undefined) return text.length;
    return last + ((text.codePointAt(last) ?? 0) > 0xffff ? 2 : 1);
  };
  const toOriginal = (match: SecretMatch): SecretMatch => ({ kind: match.kind, start: folded.origin[match.start] ?? text.length, end: endOf(match.end) });
  return [...findShapes(folded.text), ...findKnown(folded.text, known)].map(toOriginal);
}

/** Finds pasted credentials; `knownSecrets` are this deployment's own keys, matched exactly. */
export function scanForSecrets(text: string, knownSecrets: readonly string[] = []): SecretScan {
  const matches = findMatches(text, knownSecrets);
  return { kinds: [...new Set(matches.map((match) => match.kind))], count: matches.length };
}

/** Replaces every recognised credential with `[redacted <kind>]`, for text that must be kept or shown. */
export function redactPastedSecrets(text: string, knownSecrets: readonly string[] = []): string {
  const matches = findMatches(text, knownSecrets).sort((left, right) => right.start - left.start);
  let result = text;
  let lowestStart = Number.POSITIVE_INFINITY;
  for (const match of matches) {
    // Overlapping matches (a configured key that is also an sk- key) are replaced once.
    if (match.end > lowestStart) continue;
    result = `${result.slice(0, match.start)}[redacted ${match.kind}]${result.slice(match.end)}`;
    lowestStart = match.start;
  }
  return result;
}
