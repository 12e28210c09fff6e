import { describe, expect, it } from 'vitest';
import type { Idea, LedgerNote, SessionLedger } from '../../../../src/core/idea-ledger.ts';
import { disagreementLines, ideasReply } from '../../../../src/services/ideas/ledger-markdown.ts';
import { ledgerFigures } from '../../../../src/services/ideas/ledger-metrics.ts';

const idea = (number: number, title: string, proposer: string, objectors: string[], messageIds: number[]): Idea => ({
  sessionId: 's',
  number,
  title,
  summary: `${title}.`,
  proposer,
  builders: [],
  objectors,
  messageIds,
  mentions: 1,
  firstPass: 1,
  embedding: null,
});

const clash: LedgerNote = {
  sessionId: 's',
  kind: 'disagreement',
  text: 'Where flags live',
  sides: [
    { speakers: ['Claude'], position: 'a config file' },
    { speakers: ['ChatGPT'], position: 'a service' },
  ],
  messageIds: [4, 5],
  firstPass: 1,
  embedding: null,
};

const ledger = (ideas: Idea[], notes: LedgerNote[]): SessionLedger => ({ ideas, notes, passes: [] });

describe('where the room disagreed', () => {
  it('tells a clash once: an objection the disagreement already names is not repeated as "for it versus against it"', () => {
    const lines = disagreementLines(
      ledger([idea(1, 'Config file', 'Claude', ['ChatGPT'], [4, 5]), idea(2, 'Kill switches', 'Grok', ['Claude'], [7])], [clash]),
      new Map(),
    );
    expect(lines).toEqual([
      '- **Where flags live**: Claude: a config file **versus** ChatGPT: a service (#4, #5).',
      '- **I2 Kill switches**: Grok for it **versus** Claude against it (#7).',
    ]);
  });

  it('keeps the objection when the disagreement names other speakers, and says when all agreed', () => {
    expect(disagreementLines(ledger([idea(1, 'Config file', 'Claude', ['Grok'], [4])], [clash]), new Map())).toHaveLength(2);
    expect(disagreementLines(ledger([idea(1, 'Config file', 'Claude', [], [4])], []), new Map())).toEqual([
      '- The room agreed throughout: no idea met an objection and no disagreement was recorded.',
    ]);
  });
});

describe('the !ideas reply of an empty ledger', () => {
  it('says when the ledger reads the discussion, that passes found nothing when they did, and that none comes once it ended', () => {
    const empty = ledger([], []);
    expect(ideasReply(empty, ledgerFigures([], [], null), null, new Map(), 60)).toBe(
      'No ideas in the ledger yet: it reads the discussion every 60 s (the Scribe interval), so the first ideas show about one interval into the discussion.',
    );
    const pass = {
      sessionId: 's',
      number: 1,
      lastMessageId: 6,
      messages: 6,
      candidates: 0,
      newIdeas: 0,
      duplicates: 0,
      newObjections: 0,
      createdAt: new Date(0),
    };
    expect(ideasReply({ ...empty, passes: [pass, { ...pass, number: 2 }] }, ledgerFigures([], [], null), null, new Map(), 60)).toBe(
      'No ideas in the ledger yet: it read the discussion 2 times and found none; it reads it again every 60 s (the Scribe interval).',
    );
    // Once the session ended, no pass comes again.
    expect(ideasReply({ ...empty, passes: [pass] }, ledgerFigures([], [], null), null)).toBe(
      'No ideas in the ledger: it read the discussion 1 time and found none.',
    );
    expect(ideasReply(empty, ledgerFigures([], [], null), null)).toBe('No ideas in the ledger: it never read this discussion.');
  });
});
