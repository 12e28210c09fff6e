import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { BpeTokenCount } from '../../../../src/services/context/bpe-token-count.ts';
import { TokenCounter } from '../../../../src/services/context/token-counter.ts';

const o200k = createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE;

const SAMPLES = [
  '',
  'Hello, world!',
  'We should weigh rollout safety against delivery speed, because flags add operational cost but reduce the blast radius.',
  "It's the participants' call: they'll decide, we'd rather not. DON'T SHOUT.",
  '  leading spaces\n\n\ttabs and\r\nwindows line ends   \n',
  'function add(a: number, b: number): number {\n  return a + b; // 42\n}\n',
  'Zahlen: 1234567890 und 3.14159, 1e-9; ids 1310000000000000000.',
  'Ünïcödé façade naïve — “quotes” and ‘apostrophes’ … déjà vu',
  '東京で会いましょう。これは日本語のテキストです。中文也可以。한국어도 있어요.',
  'Emoji 🚀🔥👩‍👩‍👧‍👦 and flags 🇫🇷🇯🇵, math ∑∫√∞ ≠ ≤ ≥',
  'Русский текст и ελληνικά γράμματα, עברית וערבית العربية',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis',
  '```json\n{"key": [1, 2, 3], "nested": {"a": null, "b": true}}\n```',
  'https://example.com/path?query=value&other=1#fragment <a href="x">link</a>',
];

describe('BpeTokenCount', () => {
  const reference = new Tiktoken(o200k);
  const counter = new BpeTokenCount(o200k);

  it('counts exactly as js-tiktoken encodes, in every script', () => {
    for (const text of SAMPLES) expect(counter.count(text), text).toBe(reference.encode(text).length);
  });

  it('counts a long mixed text exactly too', () => {
    const text = SAMPLES.join('\n').repeat(20);
    expect(counter.count(text)).toBe(reference.encode(text).length);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(new TokenCounter().count('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});
