import type { Attachment, Message } from 'discord.js';
import { Collection } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { AttachmentTexts, fencedExcerpt, isPdfFile, isTextFile } from '../../../src/bot/attachment-text.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { minimalPdf } from '../../support/minimal-pdf.ts';

const file = (id: string, name: string, contentType: string | null, size = 100) =>
  ({ id, name, contentType, size, url: `https://cdn.discordapp.com/attachments/1/${id}/${name}?ex=ff&is=1&hm=ab&` }) as unknown as Attachment;

function reader(contents: Record<string, string | number | Uint8Array>, maxMessageChars = 8000) {
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const address = String(input);
    asked.push(address);
    const id = address.split('/')[5]!;
    const content = contents[id];
    if (typeof content === 'number') return new Response('gone', { status: content });
    return new Response(typeof content === 'string' || content === undefined ? (content ?? '') : Buffer.from(content), { status: 200 });
  };
  const texts = new AttachmentTexts({
    cdnUrl: 'http://cdn.test/',
    fetch,
    maxMessageChars: () => maxMessageChars,
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  return { texts, asked };
}

const message = (content: string, ...attachments: Attachment[]) =>
  ({ content, attachments: new Collection(attachments.map((attachment) => [attachment.id, attachment])) }) as unknown as Pick<
    Message,
    'content' | 'attachments'
  >;

describe('reading the text files people share', () => {
  it('reads text by type or name, and never an image, a PDF or a file over 256 KB', () => {
    expect(isTextFile(file('1', 'prd.md', null))).toBe(true);
    expect(isTextFile(file('1', 'data', 'application/json'))).toBe(true);
    expect(isTextFile(file('1', 'notes', 'text/plain; charset=utf-8'))).toBe(true);
    expect(isTextFile(file('1', 'shot.png', 'image/png'))).toBe(false);
    expect(isTextFile(file('1', 'spec.pdf', 'application/pdf'))).toBe(false);
    expect(isTextFile(file('1', 'huge.log', 'text/plain', 300 * 1024))).toBe(false);
  });

  it('reads a PDF up to 8 MB by type or name', () => {
    expect(isPdfFile(file('1', 'spec.pdf', 'application/pdf'))).toBe(true);
    expect(isPdfFile(file('1', 'SPEC.PDF', null))).toBe(true);
    expect(isPdfFile(file('1', 'scan.pdf', 'application/pdf', 9 * 1024 * 1024))).toBe(false);
    expect(isPdfFile(file('1', 'prd.md', 'text/markdown'))).toBe(false);
  });

  it("reads a PDF's text layer; a scanned or broken PDF is named only, and pages left unread are said", async () => {
    const pages = Array.from({ length: 6 }, (_, page) => Array.from({ length: 30 }, (_, line) => `Page ${page + 1} line ${line}: retention by cohort.`));
    const { texts } = reader(
      { p: minimalPdf([['Pricing spec', 'Tier A: 10 dollars a month.']]), s: minimalPdf([[]]), b: '%PDF-1.4 broken', l: minimalPdf(pages) },
      3000,
    );
    const attached = [file('p', 'spec.pdf', 'application/pdf'), file('s', 'scan.pdf', 'application/pdf'), file('b', 'broken.pdf', 'application/pdf')];
    const excerpts = await texts.excerpts(message('the spec', ...attached));
    expect(excerpts.get('p')).toBe('```\nPricing spec\nTier A: 10 dollars a month.\n```');
    expect([...excerpts.keys()]).toEqual(['p']);
    const long = (await texts.excerpts(message('the long one', file('l', 'long.pdf', 'application/pdf')))).get('l');
    expect(long).toMatch(/^```\nPage 1 line 0: retention by cohort\./);
    expect(long).toMatch(/\n```\n\(the first \d+ characters, from pages 1-\d of 6\)$/);
  });

  it('fences an excerpt beyond any backticks inside it, and says when it was cut', () => {
    expect(fencedExcerpt('plain', 5)).toBe('```\nplain\n```');
    expect(fencedExcerpt('has ```` inside', 15)).toBe('`````\nhas ```` inside\n`````');
    expect(fencedExcerpt('abc', 10)).toBe('```\nabc\n```\n(the first 3 of 10 characters)');
  });

  it('reads from the configured CDN, skips what cannot be read, and keeps within the message limit', async () => {
    const { texts, asked } = reader({ a: 'first file', b: 404, c: 'binary\u0000data', d: 'x'.repeat(5000), f: 'never reached' }, 3000);
    const attached = ['a', 'b', 'c', 'd', 'f'].map((id) => file(id, `${id}.txt`, 'text/plain'));
    const excerpts = await texts.excerpts(message('hello', ...attached.slice(0, 4), file('e', 'e.png', 'image/png'), attached[4]!));
    expect(asked[0]).toBe('http://cdn.test/attachments/1/a/a.txt?ex=ff&is=1&hm=ab&');
    // The image is never fetched; the budget is spent by d, so f is not read at all.
    expect(asked.map((address) => address.split('/')[5])).toEqual(['a', 'b', 'c', 'd']);
    expect([...excerpts.keys()]).toEqual(['a', 'd']);
    expect(excerpts.get('a')).toBe('```\nfirst file\n```');
    expect(excerpts.get('d')).toMatch(/\(the first \d+ of 5000 characters\)$/);
    const total = 'hello'.length + [...excerpts.values()].reduce((sum, excerpt) => sum + excerpt.length, 0);
    expect(total).toBeLessThanOrEqual(3000);
  });
});
