import { describe, expect, it } from 'vitest';
import { checkExtraction, mergeIntoLedger, type IdeaCandidate } from '../../../../src/services/ideas/ledger-merge.ts';
import { stripLedgerSections, withLedgerSections } from '../../../../src/services/ideas/ledger-markdown.ts';
import {
  agreementRatio,
  duplicateIdeaRatio,
  ideasPer100Messages,
  isConverged,
  roundsWithoutNewIdea,
  roundsWithoutNewIdeaAtClose,
} from '../../../../src/services/ideas/ledger-metrics.ts';
import type { Idea, LedgerPass } from '../../../../src/core/idea-ledger.ts';
import { roleMap, roundOf } from '../../../../src/services/ideas/session-roles.ts';

function pass(number: number, newIdeas: number, newObjections = 0, minute = number): LedgerPass {
  return {
    sessionId: 's',
    number,
    lastMessageId: number * 10,
    messages: 10,
    candidates: newIdeas + 1,
    newIdeas,
    duplicates: 1,
    newObjections,
    createdAt: new Date(Date.UTC(2026, 4, 1, 9, minute)),
  };
}

function idea(number: number, overrides: Partial<Idea> = {}): Idea {
  return {
    sessionId: 's',
    number,
    title: `Idea ${number}`,
    summary: '',
    proposer: 'Claude',
    builders: [],
    objectors: [],
    messageIds: [number],
    mentions: 1,
    firstPass: 1,
    embedding: null,
    ...overrides,
  };
}

describe('ledger figures', () => {
  it('counts trailing rounds without a new idea or objection, and converges at the threshold only after some idea', () => {
    const passes = [pass(1, 2), pass(2, 0, 1), pass(3, 0), pass(4, 0)];
    expect(roundsWithoutNewIdea(passes)).toBe(2);
    expect(isConverged(passes, 2)).toBe(true);
    expect(isConverged(passes, 3)).toBe(false);
    expect(isConverged([pass(1, 0), pass(2, 0)], 2)).toBe(false);
    expect(isConverged(passes, 0)).toBe(false);
    expect(roundsWithoutNewIdeaAtClose(passes, new Date(Date.UTC(2026, 4, 1, 9, 3)))).toBe(1);
    expect(roundsWithoutNewIdeaAtClose(passes, null)).toBeNull();
  });

  it('computes the agreement ratio, ideas per 100 messages and the duplicate ratio', () => {
    expect(agreementRatio([idea(1)])).toBeNull();
    expect(agreementRatio([idea(1, { builders: ['Grok', 'ChatGPT'] }), idea(2, { builders: ['Grok'], objectors: ['Claude'] })])).toBe(0.75);
    expect(ideasPer100Messages([idea(1), idea(2)], [pass(1, 2), pass(2, 0)])).toBe(10);
    expect(duplicateIdeaRatio([pass(1, 2), pass(2, 0)])).toBeCloseTo(2 / 4);
    expect(duplicateIdeaRatio([])).toBe(0);
  });
});

describe('checking and merging an extraction', () => {
  const scope = {
    speakers: ['Claude', 'Grok', 'Alice'],
    // Read as #3 and #4 (the session's numbering), stored as 103 and 104.
    messages: new Map([
      [3, { id: 103, speaker: 'Claude' }],
      [4, { id: 104, speaker: 'Grok' }],
    ]),
    knownIdeas: new Set([1]),
  };

  it('drops unknown speakers and message ids, and ideas that cannot be traced to a message', () => {
    const checked = checkExtraction(
      {
        ideas: [
          { existingIdea: '', title: 'Cache', summary: 's', proposer: 'nobody', builders: ['grok', 'Claude', 'Zed'], objectors: [], messageIds: [3, 42] },
          { existingIdea: '', title: 'Ghost', summary: 's', proposer: 'Claude', builders: [], objectors: [], messageIds: [42] },
          { existingIdea: 'I1', title: 'Known', summary: 's', proposer: 'Claude', builders: [], objectors: ['Grok'], messageIds: [] },
        ],
        disagreements: [
          {
            topic: 'Where',
            sides: [
              { speakers: ['Claude'], position: 'here' },
              { speakers: ['Zed'], position: 'there' },
            ],
            messageIds: [3],
          },
        ],
        openQuestions: [{ question: 'Who?', messageIds: [4] }],
      },
      scope,
    );
    expect(checked.ideas).toEqual([
      { ref: null, title: 'Cache', summary: 's', proposer: 'Claude', builders: ['Grok'], objectors: [], messageIds: [103] },
      { ref: 1, title: 'Known', summary: 's', proposer: 'Claude', builders: [], objectors: ['Grok'], messageIds: [] },
    ]);
    expect(checked.notes).toEqual([{ kind: 'open_question', text: 'Who?', sides: [], messageIds: [104] }]);
  });

  it('merges a candidate into a similar known idea (a duplicate), and counts objections that are new', () => {
    const candidate = (title: string, overrides: Partial<IdeaCandidate> = {}): IdeaCandidate => ({
      ref: null,
      title,
      summary: '',
      proposer: 'Grok',
      builders: [],
      objectors: [],
      messageIds: [9],
      ...overrides,
    });
    const merged = mergeIntoLedger({
      sessionId: 's',
      pass: 2,
      known: [idea(1, { embedding: [1, 0], objectors: ['Alice'] })],
      knownNotes: [],
      ideas: [candidate('Same idea', { objectors: ['Alice', 'Claude'] }), candidate('Other idea')],
      notes: [],
      embeddings: [
        [0.99, 0.05],
        [0, 1],
      ],
      similarity: 0.9,
    });
    expect(merged).toMatchObject({ candidates: 2, newIdeas: 1, duplicates: 1, newObjections: 1 });
    expect(merged.changed.map((entry) => entry.number)).toEqual([1, 2]);
    expect(merged.changed[0]).toMatchObject({ builders: ['Grok'], objectors: ['Alice', 'Claude'], messageIds: [1, 9], mentions: 2 });
    expect(merged.changed[1]).toMatchObject({ number: 2, title: 'Other idea', firstPass: 2 });
  });
});

describe('ledger sections and roles', () => {
  it('replaces its own sections instead of adding them twice, keeping the rest of the record', () => {
    const ledger = { ideas: [idea(1, { builders: ['Grok'] })], notes: [], passes: [pass(1, 1)] };
    const once = withLedgerSections('# Record\n\n## Discussion flow\nText', ledger, new Map([[1, 'https://x/1']]), 'record');
    const twice = withLedgerSections(once, ledger, new Map(), 'record');
    expect(twice.match(/## Idea ledger/g)).toHaveLength(1);
    expect(once).toContain('([#1](https://x/1))');
    expect(twice).toContain('The room agreed throughout');
    expect(stripLedgerSections(twice)).toBe('# Record\n\n## Discussion flow\nText');
    // Cited by the message's number in its session, not its database id.
    expect(withLedgerSections('# Record', ledger, new Map([[1, { url: null, number: 7 }]]), 'record')).toContain('(#7)');
  });

  it('gives every participant a role and rotates them every K rounds', () => {
    const names = ['Claude', 'ChatGPT', 'Grok'];
    const first = roleMap(names, 0, 2);
    expect([...first.values()].map((role) => role.name)).toEqual(['proposer', 'skeptic', 'pragmatist']);
    expect(roleMap(names, 1, 2).get('Claude')?.name).toBe('proposer');
    expect(roleMap(names, 2, 2).get('Claude')?.name).toBe('skeptic');
    expect(roundOf(7, 3)).toBe(2);
  });
});
