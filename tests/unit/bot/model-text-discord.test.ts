/**
 * Discord: text at its worst, as models (and people) write it, fed to every pure function that shapes text for Discord, for
 * Notion, for storage or for a parser: huge lines, no spaces, thousands of backticks, unclosed fences, deep lists and
 * quotes, enormous tables, zero-width and astral characters, lone surrogates, NUL, `\r\n`, 100,000-character answers,
 * JSON in fences and half of it, links with huge addresses, and the runs that made a regular expression quadratic.
 * Every function must return soon (each call is timed: one slower than linear work fails its case, and a test yields
 * between cases, so calls that run long end at the test's timeout, not after every case; a loop that allocates for ever,
 * as the splitter's did, ends the fork out of memory), never throw, keep within the limit it exists for, and keep what it
 * promises to keep. The inputs are fixed (a seeded generator), so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import { DISCORD_MESSAGE_LIMIT, splitMessage } from '../../../src/bot/message-splitter.ts';
import { composeChunks, fallbackEmbed, personaUsername, replyLine, threadName } from '../../../src/bot/message-format.ts';
import { sourcesLine } from '../../../src/bot/citation-line.ts';
import { fencedExcerpt } from '../../../src/bot/attachment-text.ts';
import { findMaskedLinks } from '../../../src/agents/guardrails/masked-links.ts';
import type { OutgoingMessage } from '../../../src/core/ports.ts';
import { TEST_TIMEOUT_MS, timed, eachCase, wellFormed, visible, isSubsequence, LINE_BREAK, speaker, head, citationOf } from '../../support/adversarial-text.ts';

describe('text for Discord', () => {
  it(
    'splitMessage: every chunk within the limit, none blank, every visible character kept in order, no emoji halved',
    async () => {
      for (const limit of [DISCORD_MESSAGE_LIMIT, 40, 333]) {
        await eachCase((text, name) => {
          const label = `splitMessage(${name}, ${limit})`;
          const chunks = timed(label, () => splitMessage(text, limit));
          // Each chunk is at least half full, or ends where a line does.
          expect(chunks.length, label).toBeLessThanOrEqual(Math.ceil((4 * text.length) / limit) + text.split('\n').length + 1);
          expect(
            chunks.filter((chunk) => chunk.length > limit || chunk.trim() === ''),
            label,
          ).toEqual([]);
          expect(isSubsequence(visible(text), visible(chunks.join('\n'))), `${label} lost visible text`).toBe(true);
          if (wellFormed(text))
            expect(
              chunks.filter((chunk) => !wellFormed(chunk)),
              `${label} halved a surrogate pair`,
            ).toEqual([]);
        });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'composeChunks: a reply line, sources and the simulated marker never take a chunk past 2000, and the answer is kept',
    async () => {
      await eachCase((text, name) => {
        const message: OutgoingMessage = {
          speaker: speaker('Claude'),
          content: text,
          replyTo: [
            { messageId: 7, externalId: '7', speakerName: text.slice(0, 300), excerpt: text.slice(0, 100), url: 'https://discord.com/channels/1/2/7' },
            { messageId: 8, externalId: null, speakerName: 'Ana', excerpt: '', url: null },
          ],
          simulated: true,
          citations: [citationOf(text), citationOf(text.slice(50))],
        };
        const chunks = timed(`composeChunks(${name})`, () => composeChunks(message));
        expect(chunks.length, name).toBeGreaterThan(0);
        expect(
          chunks.filter((chunk) => chunk.length > DISCORD_MESSAGE_LIMIT),
          name,
        ).toEqual([]);
        expect(isSubsequence(visible(text), visible(chunks.join('\n'))), `composeChunks(${name}) lost visible text`).toBe(true);
        // Text that fits one message stays one message.
        if (text.trimEnd().length <= 1000) expect(chunks, name).toHaveLength(1);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'replyLine, personaUsername, threadName and fallbackEmbed: one line within each Discord limit, no emoji halved',
    async () => {
      await eachCase((text, name) => {
        const name300 = head(text, 300);
        for (const budget of [0, 60, 400]) {
          const line = timed(`replyLine(${name}, ${budget})`, () =>
            replyLine([{ messageId: 1, externalId: '1', speakerName: name300, excerpt: '', url: 'https://discord.com/channels/1/2/1' }], budget),
          );
          expect(line.length, name).toBeLessThanOrEqual(budget);
          expect(LINE_BREAK.test(line), name).toBe(false);
        }
        const username = timed(`personaUsername(${name})`, () => personaUsername(speaker(head(text, 500))));
        expect(username.length, name).toBeGreaterThanOrEqual(1);
        expect(username.length, name).toBeLessThanOrEqual(80);
        expect(/discord|clyde/i.test(username), name).toBe(false);
        const thread = timed(`threadName(${name})`, () => threadName(text));
        expect(thread.length, name).toBeGreaterThanOrEqual(1);
        expect(thread.length, name).toBeLessThanOrEqual(100);
        expect(LINE_BREAK.test(thread), name).toBe(false);
        const author = timed(`fallbackEmbed(${name})`, () => fallbackEmbed(speaker(head(text, 1000)), head(text, 2000)).author?.name ?? '');
        expect(author.length, name).toBeGreaterThanOrEqual(1);
        expect(author.length, name).toBeLessThanOrEqual(256);
        if (wellFormed(head(text, 1000)))
          expect(
            [username, thread, author].filter((shown) => !wellFormed(shown)),
            name,
          ).toEqual([]);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sourcesLine: one line of at most five links, none of which the masked-link screen flags',
    async () => {
      await eachCase((text, name) => {
        const citations = [0, 1, 2, 3, 4, 5, 6].map((index) => citationOf(text.slice(index * 7)));
        citations.push({ url: 'https://real.example/page', title: 'other.example' }, { url: 'https://real.example/(a)<b>', title: text.slice(0, 80) || 'x' });
        const line = timed(`sourcesLine(${name})`, () => sourcesLine(citations));
        expect(LINE_BREAK.test(line), name).toBe(false);
        expect(line.split(' · ').length, name).toBeLessThanOrEqual(5);
        expect(findMaskedLinks(line), name).toEqual([]);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'fencedExcerpt: a fence longer than any run of backticks inside, around the whole text',
    async () => {
      // More runs of backticks than a call takes arguments: a file of 300,000 characters.
      const runs = '`a'.repeat(150_000);
      expect(timed('fencedExcerpt(150,000 runs)', () => fencedExcerpt(runs, runs.length)).startsWith('```\n'), 'runs').toBe(true);
      await eachCase((text, name) => {
        const excerpt = timed(`fencedExcerpt(${name})`, () => fencedExcerpt(text, text.length + 1));
        const fence = /^`+/.exec(excerpt)?.[0] ?? '';
        const longestInside = (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
        expect(fence.length, name).toBeGreaterThan(Math.max(2, longestInside));
        expect(excerpt.includes(text), name).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );
});
