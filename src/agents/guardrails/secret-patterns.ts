/**
 * Recognises credentials pasted into text. Only the KIND of a secret ever leaves this module: callers
 * store, log and trace kinds, never the matched value.
 */

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
  | 'configured_secret';

interface SecretPattern {
  kind: SecretKind;
  pattern: RegExp;
}

// Order matters: the more specific prefixes (sk-or-v1-, sk-ant-) come before the generic sk- pattern.
const SECRET_PATTERNS: readonly SecretPattern[] = [
  { kind: 'openrouter_api_key', pattern: /\bsk-or-v1-[A-Za-z0-9]{20,}/g },
  { kind: 'anthropic_api_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_api_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'xai_api_key', pattern: /\bxai-[A-Za-z0-9]{20,}/g },
  { kind: 'notion_token', pattern: /\b(?:ntn|secret)_[A-Za-z0-9]{30,}/g },
  { kind: 'discord_bot_token', pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}/g },
  { kind: 'aws_access_key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: 'aws_secret_key', pattern: /aws_secret_access_key\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/gi },
  { kind: 'private_key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'github_token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'stripe_key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  {
    kind: 'credential_assignment',
    pattern: /\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|bot[_-]?token|client[_-]?secret|password|passwd|secret[_-]?key)\s*[:=]\s*["']?[A-Za-z0-9_\-./+=]{16,}/gi,
  },
];

/** What was found in a text: the kinds and how many matches, never the values. */
export interface SecretScan {
  kinds: SecretKind[];
  count: number;
}

function findMatches(text: string, knownSecrets: readonly string[]): { kind: SecretKind; start: number; end: number }[] {
  const matches: { kind: SecretKind; start: number; end: number }[] = [];
  for (const { kind, pattern } of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      // A longer, more specific match already covers this span (sk-or-v1-... also matches sk-...).
      if (matches.some((found) => found.start <= start && found.end >= end)) continue;
      matches.push({ kind, start, end });
    }
  }
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
