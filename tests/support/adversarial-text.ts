/**
 * Text at its worst, as models (and people) write it, and the harness that feeds it to the pure functions shaping text
 * for Discord, Notion, storage and parsers (the model-text-*.test.ts files under tests/unit): each call timed, the inputs seeded.
 */
import type { ChatMessage, Citation, Speaker } from '../../src/core/domain.ts';
import { chatMessage as storedMessage } from './chat-messages.ts';

// ------------------------------------------------------------------------------------------------ the inputs

/** A fixed stream of numbers in [0, 1) (mulberry32): the same inputs on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The pieces random text is made of: markdown syntax, line breaks of every kind, astral and invisible characters, labels. */
export const PIECES = [
  'word ',
  'a',
  'Z',
  '7',
  ' ',
  '\n',
  '\n\n',
  '\r\n',
  '\t',
  '`',
  '```',
  '~~~',
  '```json\n',
  '*',
  '_',
  '# ',
  '## ',
  '- ',
  '  - ',
  '> ',
  '1. ',
  '- [ ] ',
  '- [x] ',
  '|',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '{',
  '}',
  '"',
  ':',
  ',',
  '.',
  '@everyone',
  '<@123>',
  '😀',
  '👨‍👩‍👧',
  '\u200b',
  '\u0000',
  '\ud800',
  '\udc00',
  'é',
  '中文',
  'https://example.com/x',
  '[link](https://example.com/y)',
  '<think>',
  '</think>',
  '[Claude]:',
  '**Grok:**',
  'sk-',
  '#12',
  'eyJ',
];

/** Text of about `length` characters made of random PIECES. */
export function randomText(random: () => number, length: number): string {
  let text = '';
  while (text.length < length) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

/**
 * The length of most cases: long enough that a step quadratic in it takes seconds (a linear one takes milliseconds).
 * Models write 100,000 characters, and people may be allowed as many: two cases are that long.
 */
export const N = 50_000;

/** One input: what it is, and its text. */
export interface Case {
  name: string;
  text: string;
}

/** Every input: the hand-shaped worst cases and the random ones. */
export function cases(): Case[] {
  const random = seeded(20_240_611);
  const shaped: [string, string][] = [
    ['empty', ''],
    ['one character', 'x'],
    ['spaces', ' '.repeat(N)],
    ['newlines', '\n'.repeat(N)],
    ['crlf', '\r\n'.repeat(N / 2)],
    ['carriage returns', 'a\r'.repeat(N / 2)],
    ['space newline', ' \n'.repeat(N / 2)],
    ['one huge word', 'a'.repeat(N)],
    ['dotted run', 'a.'.repeat(N / 2)],
    ['dashed run', 'a-'.repeat(N / 2)],
    ['digits', '1'.repeat(N)],
    ['words at the limit', `${'w'.repeat(1999)} `.repeat(20) + 'x'.repeat(2001)],
    ['fence with a 2000-character info string', `\`\`\`${'a'.repeat(2000)}\ncode\n\`\`\`\n${'x '.repeat(3000)}`],
    ['fence with a 3000-backtick marker', `${'`'.repeat(3000)}\n${'code line\n'.repeat(500)}${'`'.repeat(3000)}`],
    ['backticks', '`'.repeat(N)],
    ['fence lines', '```\n'.repeat(N / 4)],
    ['fence then spaces', `\`\`\`${' '.repeat(N)}!`],
    ['json fence then spaces', `\`\`\`json\n${' '.repeat(N)}x`],
    ['fence openings in prose', 'a```\n'.repeat(N / 5)],
    ['unclosed fence', `\`\`\`js\n${'const x = 1;\n'.repeat(7000)}`],
    ['unclosed tilde fence', `~~~python\n${'print(1)\n'.repeat(8000)}`],
    ['fence languages Notion lacks', '```ts\nlet a = 1;\n```\n```PY\nx = 1\n```\n```c#\nint x;\n```\n```text\nplain\n```'],
    ['nested list', Array.from({ length: 3000 }, (_, index) => `${'  '.repeat(index % 30)}- item ${index}`).join('\n')],
    ['list with many children', `- parent\n${'  - child\n'.repeat(450)}`],
    ['huge nested items', `- parent\n${`  - ${'中'.repeat(1990)}\n`.repeat(50)}`],
    ['deep quote', `${'>'.repeat(N / 2)} deep`],
    ['quote lines', '> quoted line\n'.repeat(6000)],
    ['table', `| a | b | c |\n|---|---|---|\n${'| cell | 😀 | x |\n'.repeat(5000)}`],
    ['zero-width', '\u200b'.repeat(N)],
    ['emoji family', '👨‍👩‍👧'.repeat(N / 8)],
    ['emoji', '😀'.repeat(N / 2)],
    ['emoji off by one', `a${'😀'.repeat(N / 2)}`],
    ['emoji words', `${'😀'.repeat(700)} `.repeat(60)],
    ['cjk without spaces', '中文字'.repeat(N / 3)],
    ['lone surrogates', '\ud800a\udc00'.repeat(N / 3)],
    ['nul', '\u0000'.repeat(N)],
    ['control characters', '\u0001\u001f\u007f\u0085\u2028\u2029'.repeat(N / 6)],
    ['answer of 100,000 characters', Array.from({ length: 20_000 }, (_, index) => (index % 97 === 0 ? 'end.\n\n' : 'word')).join(' ')],
    ['json in a fence', `Here it is:\n\`\`\`json\n${JSON.stringify({ ranking: ['B', 'A'], reason: 'r'.repeat(5000), summary: 's', keyFindings: [] })}\n\`\`\``],
    ['half json', `{"ranking": ["A", "B"], "reason": "${'y'.repeat(N)}`],
    ['braces', '{'.repeat(N)],
    ['nested arrays', `${'['.repeat(N / 2)}${']'.repeat(N / 2)}`],
    ['huge link', `[see](https://example.com/${'p'.repeat(5000)}) and [ok](https://example.com/ok)`],
    ['many links', '[a](https://a.example/x) '.repeat(4000)],
    ['masked links', '[example.com](https://other.example) '.repeat(2000)],
    ['link openings', '[a](https://'.repeat(N / 12)],
    ['think openings', '<think>'.repeat(N / 7)],
    ['think closings', '</think>'.repeat(N / 8)],
    ['unclosed think', `<think>${'thought '.repeat(N / 8)}`],
    ['labels', '[Claude]: '.repeat(N / 10)],
    ['label lines', '**Claude:** hello\n'.repeat(5000)],
    ['marker lines', '*\n'.repeat(N / 2)],
    ['heading then spaces', `# a${' '.repeat(N)}b`],
    ['heading lines', '## Idea ledger\n## Critique round\n'.repeat(3000)],
    ['token-like run', `sk-${'Ab1'.repeat(N / 3)}`],
    ['jwt openings', 'eyJ'.repeat(N / 3)],
    ['private keys', '-----BEGIN PRIVATE KEY-----\n'.repeat(3000)],
    ['and after spaces', `ok${' '.repeat(N)}and go`],
    ['approval with spaces and newlines', `yes${' \n'.repeat(N / 2)}and go`],
    ['numbers before spaces', `keep it to 1${' '.repeat(N)}x tokens`],
    ['hashes', '#'.repeat(N)],
    ['task lines', `## Next steps\n${'- [ ] do it (#1, #2)\n'.repeat(5000)}`],
    ['attached files', '[attached image: a.png <https://cdn.discordapp.com/a.png?ex=1>]\n'.repeat(1500)],
    ['address openings', `[attached image: ${'<https://a'.repeat(N / 10)}`],
    ['long command', `!${'a'.repeat(N)}`],
    [
      'fences between long lines',
      Array.from({ length: 600 }, (_, index) => (index % 3 === 0 ? '```' : index % 3 === 1 ? 'x'.repeat(2 * index) : '')).join('\n'),
    ],
  ];
  const generated: [string, string][] = [50, 300, 1999, 2001, 4100, 20_000].flatMap((length) =>
    [0, 1].map((copy): [string, string] => [`random ${length} #${copy}`, randomText(random, length)]),
  );
  const all: [string, string][] = [...shaped, ...generated, ['random 100,000', randomText(random, 100_000)]];
  return all.map(([name, text]) => ({ name, text }));
}

/** The inputs, made once per file. */
export const CASES = cases();

// ------------------------------------------------------------------------------------------------ the harness

/** The longest one call may take: linear work on 100,000 characters takes milliseconds, a quadratic step seconds. */
export const CALL_BUDGET_MS = 1_500;
/** A test runs every case through a function or a few: well under this unless a step went quadratic or endless. */
export const TEST_TIMEOUT_MS = 30_000;

/** `call`'s result; fails, naming the case, when it throws or takes longer than a linear step could. */
export function timed<T>(label: string, call: () => T): T {
  const started = performance.now();
  let result: T;
  try {
    result = call();
  } catch (error) {
    throw new Error(`${label} threw: ${(error as Error).message}`, { cause: error });
  }
  const elapsed = performance.now() - started;
  if (elapsed > CALL_BUDGET_MS) throw new Error(`${label} took ${Math.round(elapsed)} ms: a step that is quadratic or worse`);
  return result;
}

/** Checks every case, yielding between them, so cases that run long end at this test's timeout. */
export async function eachCase(check: (text: string, name: string) => void): Promise<void> {
  for (const { name, text } of CASES) {
    check(text, name);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Half of a surrogate pair without its other half. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when every surrogate is half of a pair (what `String.prototype.isWellFormed` says, before ES2024). */
export function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The text without whitespace: what a reader sees of it. */
export function visible(text: string): string {
  return text.replace(/\s+/g, '');
}

/** True when `needle`'s characters all occur in `haystack`, in order (others may come between). */
export function isSubsequence(needle: string, haystack: string): boolean {
  let found = 0;
  for (let index = 0; index < haystack.length && found < needle.length; index += 1) if (haystack[index] === needle[found]) found += 1;
  return found === needle.length;
}

/** Any line break, as a Discord or Notion single-line field would show it. */
export const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** A speaker of the given name (a participant unless said). */
export const speaker = (name: string, kind: Speaker['kind'] = 'participant'): Speaker => ({ kind, name });

/** A delivered message of `who` saying `text`, numbered `number`. */
export function chatMessage(number: number, text: string, who: Speaker = speaker('Claude'), citations: Citation[] = []): ChatMessage {
  return storedMessage({
    id: number,
    text,
    speaker: who,
    role: who.kind === 'human' ? 'user' : 'assistant',
    sessionId: 'ses_fuzz',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    citations,
  });
}

/** The first `length` characters of `text`, one fewer rather than half an emoji (so a cut of ours halves none). */
export function head(text: string, length: number): string {
  return text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(length - 1)) ? length - 1 : length);
}

/** A web page cited with a title and an address made of the case's text (providers send any title, and odd paths). */
export function citationOf(text: string): Citation {
  const path = encodeURIComponent(head(text, 20).replace(/[\uD800-\uDFFF]/g, '\ufffd'));
  return { url: `https://example.com/${path}`, title: head(text, 200) || 'page' };
}
