import { describe, expect, it } from 'vitest';
import { DISCORD_MESSAGE_LIMIT, splitMessage } from '../../../src/bot/message-splitter.ts';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function paragraph(seed: number, length: number): string {
  const words = ['idea', 'plan', 'budget', 'risk', 'market', 'users', 'launch', 'metric', 'trade-off', 'because'];
  const out: string[] = [];
  let size = 0;
  let state = seed;
  while (size < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const word = words[state % words.length] ?? 'word';
    out.push(word);
    size += word.length + 1;
  }
  return out.join(' ').slice(0, length);
}

function withoutFencesAndSpace(text: string): string {
  return text
    .split('\n')
    .filter((line) => !FENCE.test(line))
    .join('')
    .replace(/\s+/g, '');
}

function fenceLines(chunk: string): string[] {
  return chunk.split('\n').filter((line) => FENCE.test(line));
}

describe('splitMessage', () => {
  it('returns text that fits as one unchanged chunk and nothing for blank text', () => {
    expect(splitMessage('Hello **world**')).toEqual(['Hello **world**']);
    expect(splitMessage('x'.repeat(DISCORD_MESSAGE_LIMIT))).toEqual(['x'.repeat(DISCORD_MESSAGE_LIMIT)]);
    expect(splitMessage('  \n\n ')).toEqual([]);
  });

  it('cuts between paragraphs when one would be cut in the middle', () => {
    const paragraphs = [paragraph(1, 900), paragraph(2, 900), paragraph(3, 900)];
    const chunks = splitMessage(paragraphs.join('\n\n'));
    expect(chunks).toEqual([`${paragraphs[0]}\n\n${paragraphs[1]}`, paragraphs[2]]);
  });

  it('prefers an earlier paragraph break over a later line break while the chunk stays at least half full', () => {
    const first = paragraph(4, 1200);
    const lines = Array.from({ length: 12 }, (_, index) => paragraph(10 + index, 150));
    const chunks = splitMessage(`${first}\n\n${lines.join('\n')}`);
    expect(chunks[0]).toBe(first);
    expect(chunks[1]).toBe(lines.join('\n'));
  });

  it('cuts at line ends when there are no paragraphs, never inside a line', () => {
    const lines = Array.from({ length: 60 }, (_, index) => `${index}: ${paragraph(index, 70)}`);
    const chunks = splitMessage(lines.join('\n'));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      for (const line of chunk.split('\n')) expect(lines).toContain(line);
    }
    expect(chunks.join('\n')).toBe(lines.join('\n'));
  });

  it('closes a code fence at a cut and reopens it with its language', () => {
    const code = Array.from({ length: 150 }, (_, index) => `const value${index} = compute(${index}); // step ${index}`);
    const text = `Here is the code:\n\n\`\`\`typescript\n${code.join('\n')}\n\`\`\`\n\nThat is all.`;
    const chunks = splitMessage(text);
    expect(chunks.length).toBeGreaterThan(2);
    chunks.forEach((chunk, index) => {
      expect(chunk.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(fenceLines(chunk).length % 2).toBe(0);
      if (index > 0 && index < chunks.length - 1) expect(chunk.startsWith('```typescript\n')).toBe(true);
    });
    expect(chunks.at(-1)).toContain('That is all.');
    const codeLines = chunks.flatMap((chunk) => chunk.split('\n')).filter((line) => line.startsWith('const value'));
    expect(codeLines).toEqual(code);
  });

  it('keeps tilde fences and longer backtick fences intact around inner fences', () => {
    const inner = Array.from({ length: 80 }, (_, index) => (index % 20 === 0 ? '```js' : `line ${index} ${paragraph(index, 40)}`));
    const text = `\`\`\`\`markdown\n${inner.join('\n')}\n\`\`\`\`\n\n~~~python\n${Array.from({ length: 60 }, (_, index) => `print(${index})  # ${paragraph(index, 30)}`).join('\n')}\n~~~`;
    const chunks = splitMessage(text);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      const opened = fenceLines(chunk).filter((line) => line.startsWith('````') || line.startsWith('~~~'));
      expect(opened.length % 2).toBe(0);
    }
    expect(chunks.some((chunk, index) => index > 0 && chunk.startsWith('````markdown\n'))).toBe(true);
    expect(withoutFencesAndSpace(chunks.join('\n'))).toBe(withoutFencesAndSpace(text));
  });

  it('cuts an over-long line at a space, and a line without spaces anywhere', () => {
    const words = paragraph(7, 5000);
    const wordChunks = splitMessage(words);
    for (const chunk of wordChunks) {
      expect(chunk.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(words.includes(chunk)).toBe(true);
    }
    expect(wordChunks.join(' ')).toBe(words);
    const solid = 'a'.repeat(4500);
    expect(splitMessage(solid).map((chunk) => chunk.length)).toEqual([2000, 2000, 500]);
  });

  it('moves on through a fence too long to reopen in a chunk (a runaway info string, a huge marker)', () => {
    const code = Array.from({ length: 60 }, (_, index) => `line ${index} ${'x'.repeat(40)}`).join('\n');
    for (const opening of [`\`\`\`${'a'.repeat(1995)}`, `\`\`\`ts ${'b'.repeat(1500)}`, '`'.repeat(1990), '~'.repeat(1200)]) {
      const text = `Intro.\n\n${opening}\n${code}\n\n\n${opening.replace(/[^`~].*$/, '')}\n\nAfter.`;
      const chunks = splitMessage(text);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(withoutFencesAndSpace(chunks.join('\n')).replace(/[`~]/g, '')).toBe(withoutFencesAndSpace(text).replace(/[`~]/g, ''));
    }
  });

  it('loses and repeats nothing, and stays under the limit, on mixed text', () => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const parts: string[] = [];
      for (let block = 0; block < 12; block += 1) {
        const kind = (seed * 7 + block * 3) % 4;
        if (kind === 0)
          parts.push(
            `\`\`\`${block % 2 === 0 ? 'ts' : ''}\n${Array.from({ length: 20 + seed }, (_, index) => `code ${seed}.${block}.${index}`).join('\n')}\n\`\`\``,
          );
        else if (kind === 1) parts.push(paragraph(seed * 100 + block, 300 + seed * 40));
        else if (kind === 2) parts.push(Array.from({ length: 8 }, (_, index) => `- item ${seed}.${block}.${index} ${paragraph(index + seed, 60)}`).join('\n'));
        else parts.push(paragraph(seed + block, 2500));
      }
      const text = parts.join('\n\n');
      const chunks = splitMessage(text, 1000);
      for (const chunk of chunks) {
        expect(chunk.length).toBeLessThanOrEqual(1000);
        expect(fenceLines(chunk).length % 2).toBe(0);
      }
      expect(withoutFencesAndSpace(chunks.join('\n'))).toBe(withoutFencesAndSpace(text));
    }
  });
});
