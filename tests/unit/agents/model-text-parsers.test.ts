/**
 * Parsers of model answers: text at its worst, as models (and people) write it, fed to every pure function that shapes text for Discord, for
 * Notion, for storage or for a parser: huge lines, no spaces, thousands of backticks, unclosed fences, deep lists and
 * quotes, enormous tables, zero-width and astral characters, lone surrogates, NUL, `\r\n`, 100,000-character answers,
 * JSON in fences and half of it, links with huge addresses, and the runs that made a regular expression quadratic.
 * Every function must return soon (each call is timed: one slower than linear work fails its case, and a test yields
 * between cases, so calls that run long end at the test's timeout, not after every case; a loop that allocates for ever,
 * as the splitter's did, ends the fork out of memory), never throw, keep within the limit it exists for, and keep what it
 * promises to keep. The inputs are fixed (a seeded generator), so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import { extractJson, stripJsonFence } from '../../../src/agents/models/output-fixes.ts';
import { findingsOf, parseTldrText, renderTldrMarkdown } from '../../../src/agents/tldr/tldr-text.ts';
import { parseCritiqueText } from '../../../src/agents/critique/critique-text.ts';
import { findMaskedLinks } from '../../../src/agents/guardrails/masked-links.ts';
import { asksToPingEveryone, asksToRevealInstructions, findImpersonatedSpeaker, findMentions, isUncivil } from '../../../src/agents/guardrails/text-checks.ts';
import { foldForScan, hasVisibleText } from '../../../src/agents/guardrails/scan-normalizer.ts';
import { HELD_PREVIEW_TEXT, screenPreview } from '../../../src/agents/guardrails/screen-preview.ts';
import { redactPastedSecrets, scanForSecrets } from '../../../src/agents/guardrails/secret-patterns.ts';
import { visibleAnswer, withoutThinking } from '../../../src/core/answer-text.ts';
import { repeatedAnswer } from '../../../src/core/repetition.ts';
import { tldrSchema } from '../../../src/core/schemas.ts';
import { normaliseBallot } from '../../../src/services/critique/borda.ts';
import { TokenCounter } from '../../../src/services/context/token-counter.ts';
import { TEST_TIMEOUT_MS, timed, eachCase, isSubsequence, head } from '../../support/adversarial-text.ts';

// ------------------------------------------------------------------------------------------------ parsers of model answers

describe('parsers of model answers', () => {
  it(
    'stripJsonFence and extractJson: the text, or less of it, and JSON that parses',
    async () => {
      await eachCase((text, name) => {
        const stripped = timed(`stripJsonFence(${name})`, () => stripJsonFence(text));
        expect(stripped === text || stripped.length < text.length, name).toBe(true);
        const json = timed(`extractJson(${name})`, () => extractJson(text));
        if (json !== text) expect(() => JSON.parse(json), name).not.toThrow();
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'parseCritiqueText, parseTldrText and findingsOf: a well-shaped reading or none',
    async () => {
      await eachCase((text, name) => {
        const critique = timed(`parseCritiqueText(${name})`, () => parseCritiqueText(text));
        if (critique) {
          expect(critique.ranking.length, name).toBeGreaterThan(0);
          expect(
            critique.ranking.every((entry) => typeof entry === 'string'),
            name,
          ).toBe(true);
          const ballot = timed(`normaliseBallot(${name})`, () => normaliseBallot('Claude', critique, ['A', 'B', 'C']));
          if (ballot) expect(new Set(ballot.ranking).size, name).toBe(ballot.ranking.length);
        }
        const tldr = timed(`parseTldrText(${name})`, () => parseTldrText(text));
        if (tldr) {
          expect(tldrSchema.safeParse(tldr).success, name).toBe(true);
          expect(findingsOf(renderTldrMarkdown(tldr)).length, name).toBeGreaterThanOrEqual(0);
        }
        expect(Array.isArray(timed(`findingsOf(${name})`, () => findingsOf(text))), name).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'withoutThinking and visibleAnswer: what people see is the answer with parts left out, never more',
    async () => {
      await eachCase((text, name) => {
        // visibleAnswer reads the whole text without its thinking first, so withoutThinking runs on every case in full.
        const shown = timed(`visibleAnswer(${name})`, () => visibleAnswer(text, 'Claude'));
        expect(isSubsequence(shown, text), name).toBe(true);
        const some = head(text, 20_000);
        expect(
          isSubsequence(
            timed(`withoutThinking(${name})`, () => withoutThinking(some)),
            some,
          ),
          name,
        ).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'TokenCounter: a count in time linear in any text, a token or more for text that is there',
    async () => {
      const counter = new TokenCounter();
      await eachCase((text, name) => {
        // The first 20,000 characters: counting is linear but slow, and a step quadratic in them takes seconds.
        const some = head(text, 20_000);
        const tokens = timed(`TokenCounter.count(${name})`, () => counter.count(some));
        expect(tokens, name).toBeLessThanOrEqual(Buffer.byteLength(some));
        expect(tokens > 0, name).toBe(some !== '');
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'repeatedAnswer: an answer of eight words or more repeats itself, a shorter one never counts',
    async () => {
      await eachCase((text, name) => {
        const earlier = [{ text }, { text: 'something else entirely, said once before in this room' }];
        const repeated = timed(`repeatedAnswer(${name})`, () => repeatedAnswer(text, earlier));
        const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
        expect(repeated, name).toBe(words.length >= 8 ? earlier[0] : null);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'guardrail checks: links, mentions, requests, incivility and impersonation read in linear time',
    async () => {
      await eachCase((text, name) => {
        for (const link of timed(`findMaskedLinks(${name})`, () => findMaskedLinks(text))) {
          expect(text.includes(link.label) && text.includes(link.target), name).toBe(true);
        }
        timed(`findMentions(${name})`, () => findMentions(text));
        timed(`asksToPingEveryone(${name})`, () => asksToPingEveryone(text));
        timed(`asksToRevealInstructions(${name})`, () => asksToRevealInstructions(text));
        timed(`isUncivil(${name})`, () => isUncivil(text));
        const impersonated = timed(`findImpersonatedSpeaker(${name})`, () => findImpersonatedSpeaker(text, 'Grok', ['Claude', 'Grok', 'GPT-5']));
        expect([null, 'Claude', 'GPT-5'], name).toContain(impersonated);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'secret scans: the folded text maps back, a preview is a prefix or held, redaction changes only what it finds',
    async () => {
      await eachCase((text, name) => {
        // Folding (the scans' first step) is linear but slow: the whole text goes through it once, in the redaction below.
        const some = head(text, 20_000);
        const folded = timed(`foldForScan(${name})`, () => foldForScan(some));
        expect(folded.origin.length, name).toBe(folded.text.length);
        expect(
          folded.origin.every((origin, index) => origin < some.length && origin >= (folded.origin[index - 1] ?? 0)),
          name,
        ).toBe(true);
        if (some.trim() === '')
          expect(
            timed(`hasVisibleText(${name})`, () => hasVisibleText(some)),
            name,
          ).toBe(false);
        const preview = timed(`screenPreview(${name})`, () => screenPreview(some, ['configured-secret-1234']));
        expect(preview === '…' || preview === HELD_PREVIEW_TEXT || some.startsWith(preview), name).toBe(true);
        // Text the scan finds nothing in comes back as it was; what it finds is gone from what comes back.
        const redacted = timed(`redactPastedSecrets(${name})`, () => redactPastedSecrets(text, ['configured-secret-1234']));
        if (redacted !== text)
          expect(timed(`scanForSecrets(redacted ${name})`, () => scanForSecrets(redacted, ['configured-secret-1234'])).count, name).toBe(0);
      });
    },
    TEST_TIMEOUT_MS,
  );
});
