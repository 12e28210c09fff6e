/**
 * Credential-shaped samples for the detector's tests, built at run time from fragments and a seeded generator, so
 * no credential-looking literal sits in the repository (a repository scan would rightly flag one).
 */

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A deterministic generator (mulberry32), so every run tests the same samples. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random text of `length` characters from `alphabet`. */
export function randomText(random: () => number, alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

const join = (...parts: string[]) => parts.join('');

/** One sample per known key shape: [kind, key]. */
export function keySamples(seed = 7): [string, string][] {
  const random = seededRandom(seed);
  const b62 = (length: number) => randomText(random, BASE62, length);
  return [
    ['openrouter_api_key', join('sk', '-or-v1-', randomText(random, HEX, 64))],
    ['openai_api_key', join('sk', '-', b62(48))],
    ['openai_api_key', join('sk', '-proj-', b62(40), '_', b62(40))],
    ['anthropic_api_key', join('sk', '-ant-', 'api03-', b62(80), '-', b62(12))],
    ['xai_api_key', join('xai', '-', b62(80))],
    ['aws_access_key', join('AK', 'IA', randomText(random, UPPER_DIGITS, 16))],
    ['aws_access_key', join('AS', 'IA', randomText(random, UPPER_DIGITS, 16))],
    ['github_token', join('gh', 'p_', b62(36))],
    ['github_token', join('gh', 'o_', b62(36))],
    ['github_token', join('github', '_pat_', b62(22), '_', b62(59))],
    ['slack_token', join('xo', 'xb-', randomText(random, '0123456789', 12), '-', randomText(random, '0123456789', 13), '-', b62(24))],
    ['notion_token', join('secret', '_', b62(43))],
    ['notion_token', join('ntn', '_', b62(46))],
    ['discord_bot_token', join('MT', b62(24), '.', b62(6), '.', b62(38))],
    ['google_api_key', join('AI', 'za', b62(35))],
    ['private_key', join('-----BEGIN ', 'OPENSSH PRIVATE', ' KEY-----\n', b62(64), '\n-----END OPENSSH PRIVATE', ' KEY-----')],
    ['jwt', join('ey', 'J', b62(30), '.', 'ey', 'J', b62(60), '.', b62(43))],
    ['high_entropy_token', b62(40)],
  ];
}

/** The key from the first report: an AWS id glued to `_prod`. */
export function gluedAwsKey(): string {
  return join('AK', 'IAIOSFODNN7EXAMPL1', '_prod');
}

/** The OpenRouter key from the first report, glued to `x_`. */
export function gluedOpenRouterKey(seed = 11): string {
  return join('x_', 'sk', '-or-v1-', randomText(seededRandom(seed), HEX, 64));
}

/** Inserts `separator` after every `every` characters (a zero-width space, a soft hyphen...). */
export function interleave(text: string, separator: string, every = 7): string {
  return text.replace(new RegExp(`(.{${every}})`, 'g'), `$1${separator}`);
}

/** The fullwidth form of ASCII letters and digits (NFKC folds them back). */
export function toFullwidth(text: string): string {
  return text.replace(/[A-Za-z0-9]/g, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0));
}

/** Replaces the Latin letters of the prefix with Cyrillic look-alikes. */
export function withCyrillicLookalikes(text: string): string {
  const map: Record<string, string> = {
    a: '\u0430',
    e: '\u0435',
    o: '\u043e',
    p: '\u0440',
    c: '\u0441',
    x: '\u0445',
    s: '\u0455',
    k: '\u043a',
    A: '\u0410',
    K: '\u041a',
  };
  return text.slice(0, 6).replace(/[aeopcxskAK]/g, (char) => map[char] ?? char) + text.slice(6);
}
