/**
 * The record and its readers: text at its worst, as models (and people) write it, fed to every pure function that shapes text for Discord, for
 * Notion, for storage or for a parser: huge lines, no spaces, thousands of backticks, unclosed fences, deep lists and
 * quotes, enormous tables, zero-width and astral characters, lone surrogates, NUL, `\r\n`, 100,000-character answers,
 * JSON in fences and half of it, links with huge addresses, and the runs that made a regular expression quadratic.
 * Every function must return soon (each call is timed: one slower than linear work fails its case, and a test yields
 * between cases, so calls that run long end at the test's timeout, not after every case; a loop that allocates for ever,
 * as the splitter's did, ends the fork out of memory), never throw, keep within the limit it exists for, and keep what it
 * promises to keep. The inputs are fixed (a seeded generator), so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import { attributedParts } from '../../../src/agents/guardrails/input-guardrails.ts';
import { checkRecord } from '../../../src/agents/guardrails/document-guardrails.ts';
import { repairCitations } from '../../../src/agents/guardrails/citation-repair.ts';
import { SOURCES_HEADING, withSources } from '../../../src/agents/scribe/record-sources.ts';
import { sharedFilesIn, withoutFileAddresses, withSharedFiles } from '../../../src/agents/scribe/shared-files.ts';
import { citedLine, ensureEveryVoice } from '../../../src/agents/scribe/scribe-input.ts';
import { imageAddressesIn } from '../../../src/agents/participants/shared-images.ts';
import { nextStepLines, nextStepsIn, stepNamed, withTicksKept } from '../../../src/core/next-steps.ts';
import type { CritiqueRound } from '../../../src/core/critique.ts';
import type { SessionLedger } from '../../../src/core/idea-ledger.ts';
import { CRITIQUE_HEADING, withCritiqueSection } from '../../../src/services/critique/critique-markdown.ts';
import { LEDGER_HEADINGS, withLedgerSections } from '../../../src/services/ideas/ledger-markdown.ts';
import { checkExtraction } from '../../../src/services/ideas/ledger-merge.ts';
import { TEST_TIMEOUT_MS, timed, eachCase, speaker, chatMessage, citationOf } from '../../support/adversarial-text.ts';

// ------------------------------------------------------------------------------------------------ the record and its inputs

describe('the record, its sections and its readers', () => {
  it(
    'attributedParts, citedLine and the file lines: nothing lost but separators and expiring addresses',
    async () => {
      await eachCase((text, name) => {
        expect(timed(`attributedParts(${name})`, () => attributedParts(text)).join('\n\n'), name).toBe(text);
        const withoutAddresses = timed(`withoutFileAddresses(${name})`, () => withoutFileAddresses(text));
        expect(withoutAddresses.length, name).toBeLessThanOrEqual(text.length);
        expect(timed(`sharedFilesIn(${name})`, () => sharedFilesIn(text)).length, name).toBeLessThanOrEqual(text.split('\n').length);
        expect(
          timed(`imageAddressesIn(${name})`, () => imageAddressesIn(text)).every((address) => /^https?:\/\//.test(address)),
          name,
        ).toBe(true);
        const line = timed(`citedLine(${name})`, () => citedLine(chatMessage(3, text, speaker('Ana', 'human'), [citationOf(text)])));
        expect(line.startsWith('#3 [Ana (person)]: '), name).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'withSources, withSharedFiles and ensureEveryVoice: the sections and every voice are there, whatever the record says',
    async () => {
      await eachCase((text, name) => {
        const messages = [
          chatMessage(1, text, speaker('Claude'), [citationOf(text)]),
          chatMessage(2, `[attached image: ${text.slice(0, 80).replace(/\n/g, ' ')} <https://cdn.discordapp.com/x.png>]`, speaker('Ana', 'human')),
          chatMessage(3, text.slice(0, 500), speaker('Zoë Ünïcode-😀')),
        ];
        const sourced = timed(`withSources(${name})`, () => withSources(text, messages));
        expect(sourced.includes(SOURCES_HEADING), name).toBe(true);
        const filed = timed(`withSharedFiles(${name})`, () => withSharedFiles(text, messages));
        expect(filed.includes('## Shared files'), name).toBe(true);
        const voiced = timed(`ensureEveryVoice(${name})`, () => ensureEveryVoice(text, messages));
        expect(
          ['Claude', 'Ana', 'Zoë Ünïcode-😀'].filter((who) => !voiced.includes(who)),
          name,
        ).toEqual([]);
        timed(`checkRecord(${name})`, () => checkRecord(text, { speakers: ['Claude', 'Ana'], messageNumbers: [1, 2, 3] }));
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'checkExtraction: an idea extractor answer of any words becomes ideas and notes of bounded size, citing what exists',
    async () => {
      const scope = { speakers: ['Claude', 'Ana'], messages: new Map([[1, { id: 11, speaker: 'Claude' }]]), knownIdeas: new Set([3]) };
      await eachCase((text, name) => {
        const words = text.split(/\s+/).slice(0, 20);
        const checked = timed(`checkExtraction(${name})`, () =>
          checkExtraction(
            {
              ideas: [
                { existingIdea: text, title: text, summary: text, proposer: text, builders: words, objectors: [text], messageIds: [1, 2] },
                { existingIdea: ' I3 ', title: '', summary: text, proposer: 'claude', builders: ['@Ana'], objectors: [], messageIds: [] },
              ],
              disagreements: [
                {
                  topic: text,
                  sides: [
                    { speakers: ['Claude'], position: text },
                    { speakers: ['Ana'], position: text },
                  ],
                  messageIds: [1],
                },
              ],
              openQuestions: [{ question: text, messageIds: [1, 99] }],
            },
            scope,
          ),
        );
        for (const idea of checked.ideas) {
          expect(idea.title.length <= 200 && idea.summary.length <= 1000 && idea.title.trim() !== '', name).toBe(true);
          expect(idea.messageIds.every((id) => id === 11) && [...idea.builders, ...idea.objectors].every((who) => scope.speakers.includes(who)), name).toBe(
            true,
          );
        }
        expect(
          checked.notes.every((note) => note.text.length <= 300 && note.messageIds.every((id) => id === 11)),
          name,
        ).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'repairCitations: every finding kept cites messages that exist',
    async () => {
      await eachCase((text, name) => {
        const messages = [
          { number: 1, text },
          { number: 2, text: 'a cache at the edge with invalidation by tag' },
        ];
        const summary = {
          summary: text.slice(0, 500),
          keyFindings: [
            { finding: text.slice(0, 300), sources: [text.slice(0, 40), '#99'] },
            { finding: 'cache invalidation by tag', sources: [] },
          ],
        };
        const repaired = timed(`repairCitations(${name})`, () => repairCitations(summary, messages, ['Claude']));
        for (const finding of repaired.keyFindings) {
          const cited = finding.sources.flatMap((source) => [...source.matchAll(/#(\d+)\b/g)].map((match) => Number(match[1])));
          expect(cited.length > 0 && cited.every((number) => number === 1 || number === 2), name).toBe(true);
        }
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'withCritiqueSection and withLedgerSections: each owned section once, at the end, however the document was written',
    async () => {
      const round: CritiqueRound = {
        sessionId: 'ses_fuzz',
        proposals: [{ label: 'A', ideaNumber: 1, title: 'Edge cache', summary: 'Cache at the edge.', proposer: 'Claude' }],
        ballots: [{ participant: 'Grok', ranking: ['A'], weakestAssumptions: [{ label: 'A', assumption: 'Traffic is read-heavy.' }], reason: 'Cheap.' }],
        failures: [],
        standings: [{ place: 1, label: 'A', points: 0, firstPlaces: 1 }],
        skippedReason: null,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      };
      const ledger: SessionLedger = { ideas: [], notes: [], passes: [] };
      const headings = (markdown: string) =>
        markdown
          .split('\n')
          .map((line) => /^##\s+(\S.*)$/.exec(line.trimEnd())?.[1]?.toLowerCase())
          .filter((heading): heading is string => heading !== undefined);
      await eachCase((text, name) => {
        const critiqued = headings(timed(`withCritiqueSection(${name})`, () => withCritiqueSection(text, round)));
        expect(
          critiqued.filter((heading) => heading === CRITIQUE_HEADING.toLowerCase()),
          name,
        ).toHaveLength(1);
        expect(critiqued.at(-1), name).toBe(CRITIQUE_HEADING.toLowerCase());
        const ledgered = headings(timed(`withLedgerSections(${name})`, () => withLedgerSections(text, ledger, new Map(), 'record')));
        for (const owned of LEDGER_HEADINGS)
          expect(
            ledgered.filter((heading) => heading === owned.toLowerCase()),
            `${name}: ${owned}`,
          ).toHaveLength(1);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'next steps: a step people ticked stays ticked in any record, and a step is named by any words in linear time',
    async () => {
      const earlier = '## Next steps\n- [x] Ship the cache (#1)';
      await eachCase((text, name) => {
        const kept = timed(`withTicksKept(${name})`, () => withTicksKept(text, earlier));
        const steps = nextStepsIn(kept);
        expect(
          steps.some((step) => step.done && (step.action.toLowerCase() === 'ship the cache (#1)' || /\(#1\)\s*$/.test(step.action))),
          name,
        ).toBe(true);
        timed(`nextStepLines(${name})`, () => nextStepLines(nextStepsIn(text)));
        timed(`stepNamed(${name})`, () => stepNamed(steps, text));
      });
    },
    TEST_TIMEOUT_MS,
  );
});
