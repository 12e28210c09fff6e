/**
 * Notion: text at its worst, as models (and people) write it, fed to every pure function that shapes text for Discord, for
 * Notion, for storage or for a parser: huge lines, no spaces, thousands of backticks, unclosed fences, deep lists and
 * quotes, enormous tables, zero-width and astral characters, lone surrogates, NUL, `\r\n`, 100,000-character answers,
 * JSON in fences and half of it, links with huge addresses, and the runs that made a regular expression quadratic.
 * Every function must return soon (each call is timed: one slower than linear work fails its case, and a test yields
 * between cases, so calls that run long end at the test's timeout, not after every case; a loop that allocates for ever,
 * as the splitter's did, ends the fork out of memory), never throw, keep within the limit it exists for, and keep what it
 * promises to keep. The inputs are fixed (a seeded generator), so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import {
  BLOCK_LIMITS,
  blocksToMarkdown,
  chunkBlocks,
  markdownToBlocks,
  toLinkedRichText,
  toRichText,
  type BlockRequest,
} from '../../../src/notion/markdown-blocks.ts';
import { sessionRowProperties } from '../../../src/notion/session-row.ts';
import { checkChildren, checkProperties, NOTION_CODE_LANGUAGES } from '../../fakes/notion/block-limits.ts';
import { TEST_TIMEOUT_MS, timed, eachCase, wellFormed, isSubsequence } from '../../support/adversarial-text.ts';

// ------------------------------------------------------------------------------------------------ Notion

interface RichItem {
  text: { content: string; link?: { url: string } };
}

function payloadOf(block: BlockRequest): { rich_text?: RichItem[]; children?: BlockRequest[]; language?: string } {
  return block[block.type] as { rich_text?: RichItem[]; children?: BlockRequest[]; language?: string };
}

/** Every block of `blocks` and their children, in reading order. */
function flatten(blocks: readonly BlockRequest[]): BlockRequest[] {
  return blocks.flatMap((block) => [block, ...flatten(payloadOf(block).children ?? [])]);
}

/** What the items say: their text, and the address of each link after its text. */
function itemStream(items: readonly RichItem[]): string {
  return items.map((item) => `${item.text.content}${item.text.link?.url ?? ''}`).join('');
}

const letters = (text: string): string => (text.match(/\p{L}/gu) ?? []).join('');

describe('text for Notion', () => {
  it(
    'toRichText and toLinkedRichText: items of at most 2000 characters, links of at most 2000, nothing lost',
    async () => {
      await eachCase((text, name) => {
        const plain = timed(`toRichText(${name})`, () => toRichText(text));
        expect(
          plain.filter((item) => item.text.content.length > BLOCK_LIMITS.textChars),
          name,
        ).toEqual([]);
        expect(plain.map((item) => item.text.content).join(''), name).toBe(text);
        if (wellFormed(text))
          expect(
            plain.filter((item) => !wellFormed(item.text.content)),
            name,
          ).toEqual([]);
        const linked = timed(`toLinkedRichText(${name})`, () => toLinkedRichText(text));
        expect(
          linked.filter((item) => item.text.content.length > BLOCK_LIMITS.textChars),
          name,
        ).toEqual([]);
        expect(
          linked.filter((item) => item.text.link && !/^https?:\/\/\S{1,1992}$/.test(item.text.link.url)),
          name,
        ).toEqual([]);
        // A link loses only its brackets: its text and its address stay, in order.
        const bare = (value: string) => value.replace(/[[\]()<>\s]/g, '');
        expect(bare(itemStream(linked)), name).toBe(bare(text));
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'markdownToBlocks and chunkBlocks: every request within every limit Notion sets, and the words kept',
    async () => {
      await eachCase((text, name) => {
        const blocks = timed(`markdownToBlocks(${name})`, () => markdownToBlocks(text));
        const chunks = timed(`chunkBlocks(${name})`, () => chunkBlocks(blocks));
        const rejoined = chunks.flat();
        expect(rejoined.length === blocks.length && rejoined.every((block, index) => block === blocks[index]), `${name}: chunks hold every block once`).toBe(
          true,
        );
        const all = flatten(blocks);
        // A block per line, and one more per 100 items (or 200 KB) of a long one.
        expect(all.length, name).toBeLessThanOrEqual(text.split('\n').length + Math.ceil(text.length / 100));
        for (const chunk of chunks) {
          expect(() => checkChildren(chunk), name).not.toThrow();
          // The blocks' bytes, and a comma between each two.
          expect(Buffer.byteLength(JSON.stringify(chunk)), name).toBeLessThanOrEqual(BLOCK_LIMITS.requestBytes + chunk.length + 1);
        }
        const items = all.flatMap((block) => payloadOf(block).rich_text ?? []);
        expect(
          items.filter((item) => item.text.link && item.text.link.url.length > 2000),
          name,
        ).toEqual([]);
        expect(
          all.filter((block) => block.type === 'code' && !NOTION_CODE_LANGUAGES.has(payloadOf(block).language ?? '')),
          name,
        ).toEqual([]);
        // Nothing made up, in order; what may go is markup: a fence's language tag, and the x of a ticked box.
        const written = letters(itemStream(items));
        const markup = text.split('\n').filter((line) => /^\s*```/.test(line) || /^\s*[-*+] \[[xX]\] /.test(line));
        expect(isSubsequence(written, letters(text)), `markdownToBlocks(${name}) made up text`).toBe(true);
        expect(written.length, `markdownToBlocks(${name}) lost text`).toBeGreaterThanOrEqual(letters(text).length - letters(markup.join('')).length);
        const read = timed(`blocksToMarkdown(${name})`, () => blocksToMarkdown(blocks.map((block, index) => ({ ...block, id: String(index) }))));
        expect(typeof read, name).toBe('string');
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sessionRowProperties: a title and properties Notion takes, multi-select names without commas',
    async () => {
      await eachCase((text, name) => {
        const properties = timed(`sessionRowProperties(${name})`, () =>
          sessionRowProperties({
            topic: text,
            status: 'active',
            conversationId: text.slice(0, 3000),
            participants: [text.slice(0, 300), text.slice(5, 50), 'Claude'],
            started: null,
            messages: 1,
            tokens: 1,
            costUsd: 0.1,
            threadUrl: null,
          }),
        );
        expect(() => checkProperties(properties), name).not.toThrow();
        const options = (properties.Participants as { multi_select: { name: string }[] }).multi_select;
        expect(
          options.filter((option) => option.name.length > 100 || option.name.includes(',')),
          name,
        ).toEqual([]);
      });
    },
    TEST_TIMEOUT_MS,
  );
});
