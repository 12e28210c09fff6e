/**
 * People's words: text at its worst, as models (and people) write it, fed to every pure function that shapes text for Discord, for
 * Notion, for storage or for a parser: huge lines, no spaces, thousands of backticks, unclosed fences, deep lists and
 * quotes, enormous tables, zero-width and astral characters, lone surrogates, NUL, `\r\n`, 100,000-character answers,
 * JSON in fences and half of it, links with huge addresses, and the runs that made a regular expression quadratic.
 * Every function must return soon (each call is timed: one slower than linear work fails its case, and a test yields
 * between cases, so calls that run long end at the test's timeout, not after every case; a loop that allocates for ever,
 * as the splitter's did, ends the fork out of memory), never throw, keep within the limit it exists for, and keep what it
 * promises to keep. The inputs are fixed (a seeded generator), so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import { DISCORD_MESSAGE_LIMIT } from '../../../src/bot/message-splitter.ts';
import { spokenList } from '../../../src/core/spoken-list.ts';
import { escapeForPattern } from '../../../src/core/speaker-label.ts';
import { COMMAND_CATALOG } from '../../../src/core/command-catalog.ts';
import type { Idea } from '../../../src/core/idea-ledger.ts';
import { labelOf } from '../../../src/services/critique/borda.ts';
import { scrubNames } from '../../../src/services/critique/anonymise.ts';
import { critiqueDirective } from '../../../src/services/critique/plan-directive.ts';
import { ideasReply } from '../../../src/services/ideas/ledger-markdown.ts';
import { ledgerFigures } from '../../../src/services/ideas/ledger-metrics.ts';
import { formatMessages, parseQuality } from '../../../src/services/moderation/moderation-messages.ts';
import { limitDirective } from '../../../src/services/sessions/limit-directive.ts';
import { splitPresetOption, withPresetNote } from '../../../src/services/sessions/session-presets.ts';
import { isApprovalPhrase } from '../../../src/services/sessions/approval-phrases.ts';
import { topicForPlanner } from '../../../src/services/sessions/planner-runs.ts';
import { MAX_PLANNER_TOPIC_CHARS } from '../../../src/agents/guardrails/input-guardrails.ts';
import { parseCommand } from '../../../src/services/commands/command-parser.ts';
import { unknownCommand, type CommandDefinition } from '../../../src/services/commands/command-table.ts';
import { exportFileName } from '../../../src/services/console/transcript-export.ts';
import { TEST_TIMEOUT_MS, timed, eachCase, speaker, chatMessage } from '../../support/adversarial-text.ts';

// ------------------------------------------------------------------------------------------------ people's words and replies

describe("people's words and the replies made of them", () => {
  const table: CommandDefinition[] = COMMAND_CATALOG.map((spec) => ({ ...spec, states: null, run: async () => '' }));

  it(
    'commands, approvals and directives: read in linear time, with well-shaped answers',
    async () => {
      await eachCase((text, name) => {
        const command = timed(`parseCommand(${name})`, () => parseCommand(text));
        if (command) expect(command.name, name).toMatch(/^[a-z][a-z-]*$/);
        timed(`unknownCommand(${name})`, () => unknownCommand(table, text, text));
        expect(typeof timed(`isApprovalPhrase(${name})`, () => isApprovalPhrase(text)), name).toBe('boolean');
        expect([true, false, null], name).toContain(timed(`critiqueDirective(${name})`, () => critiqueDirective(text)));
        const limits = timed(`limitDirective(${name})`, () => limitDirective(text));
        expect(
          Object.values(limits).filter((value) => !Number.isFinite(value) || value <= 0),
          name,
        ).toEqual([]);
        const quality = timed(`parseQuality(${name})`, () => parseQuality(text));
        if (quality !== null) expect(quality >= 0 && quality <= 10, name).toBe(true);
        const label = timed(`labelOf(${name})`, () => labelOf(text, ['A', 'B']));
        expect([null, 'A', 'B'], name).toContain(label);
        const option = timed(`splitPresetOption(${name})`, () => splitPresetOption(text));
        if (option.preset !== null) expect(option.preset, name).toMatch(/^[A-Za-z0-9-]+$/);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'topics, names and notes: within the length each is cut to, names scrubbed, a preset note once',
    async () => {
      const note = '_Session preset: **Design review** (`design-review`, picked by the Planner)._';
      await eachCase((text, name) => {
        expect(timed(`topicForPlanner(${name})`, () => topicForPlanner(text)).trim().length, name).toBeLessThanOrEqual(MAX_PLANNER_TOPIC_CHARS);
        expect(
          timed(`exportFileName(${name})`, () => exportFileName(text, 'md')),
          name,
        ).toMatch(/^brainstorm-[a-z0-9-]{1,60}\.md$/);
        const scrubbed = timed(`scrubNames(${name})`, () => scrubNames(text, ['Claude', 'GPT-5', 'Grok']));
        expect(/(?<![\p{L}\p{N}_])(?:claude|gpt-5|grok)(?![\p{L}\p{N}_])/iu.test(scrubbed), name).toBe(false);
        const noted = timed(`withPresetNote(${name})`, () => withPresetNote(text, note));
        expect(noted.split(note).length - 1, name).toBe(1);
        const words = text.split(/\s+/).slice(0, 50);
        const list = timed(`spokenList(${name})`, () => spokenList(words, 'and'));
        expect(
          words.filter((word) => !list.includes(word)),
          name,
        ).toEqual([]);
        const pattern = timed(`escapeForPattern(${name})`, () => new RegExp(`^${escapeForPattern(text.slice(0, 5000))}$`));
        expect(pattern.test(text.slice(0, 5000)), name).toBe(true);
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'formatMessages and ideasReply: each message cut to an excerpt, the ideas reply within one Discord message',
    async () => {
      const idea = (number: number, title: string): Idea => ({
        sessionId: 'ses_fuzz',
        number,
        title,
        summary: title,
        proposer: title.slice(0, 40),
        builders: [title.slice(0, 20)],
        objectors: [],
        messageIds: [1, 2],
        mentions: 1,
        firstPass: 1,
        embedding: null,
      });
      await eachCase((text, name) => {
        const formatted = timed(`formatMessages(${name})`, () =>
          formatMessages([chatMessage(1, text), chatMessage(2, text.slice(0, 900), speaker('Ana', 'human'))]),
        );
        expect(formatted.length, name).toBeLessThanOrEqual(2 * 720 + 40);
        const ideas = [idea(1, text.slice(0, 3000)), idea(2, text.slice(0, 200)), idea(3, 'A plain title')];
        const figures = ledgerFigures(ideas, [], null);
        const reply = timed(`ideasReply(${name})`, () => ideasReply({ ideas, notes: [], passes: [] }, figures, text.slice(0, 300), new Map(), 60));
        expect(reply.length, name).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      });
    },
    TEST_TIMEOUT_MS,
  );
});
