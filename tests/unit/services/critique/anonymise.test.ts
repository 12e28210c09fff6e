import { describe, expect, it } from 'vitest';
import type { Idea } from '../../../../src/core/idea-ledger.ts';
import { anonymiseProposals, labelAt, leadingIdeas, reviewList, scrubNames } from '../../../../src/services/critique/anonymise.ts';

function idea(number: number, overrides: Partial<Idea> = {}): Idea {
  return {
    sessionId: 's1',
    number,
    title: `Idea ${number}`,
    summary: `Summary ${number}.`,
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

describe('scrubNames', () => {
  it('replaces every name, whole words in any case, possessives and brackets included', () => {
    expect(scrubNames("Claude's plan, as [Grok] and alice said; grok agreed.", ['Claude', 'Grok', 'Alice'])).toBe(
      "a participant's plan, as a participant and a participant said; a participant agreed.",
    );
  });

  it('leaves words that only contain a name alone, and takes longer names first', () => {
    expect(scrubNames('Claudette met Claude Opus and Claude.', ['Claude', 'Claude Opus'])).toBe('Claudette met a participant and a participant.');
  });

  it('handles names with characters that mean something in a pattern', () => {
    expect(scrubNames('GPT-4o (mini) said so; C++ fan too.', ['GPT-4o', 'C++'])).toBe('a participant (mini) said so; a participant fan too.');
  });
});

describe('leadingIdeas', () => {
  it('takes the ideas with the most support, then presents them in ledger order so a label reveals nothing', () => {
    const ideas = [
      idea(1, { builders: ['Grok'] }),
      idea(2, { builders: ['Grok', 'ChatGPT', 'Alice'] }),
      idea(3),
      idea(4, { builders: ['Grok', 'Alice'], objectors: ['ChatGPT'] }),
      idea(5, { builders: ['Grok', 'ChatGPT'] }),
      idea(6, { builders: ['Grok'], mentions: 3 }),
    ];
    expect(leadingIdeas(ideas, 3).map((entry) => entry.number)).toEqual([2, 5, 6]);
  });
});

describe('anonymiseProposals', () => {
  it('labels A, B, C and hides every speaker of the ledger and the room inside the text', () => {
    const proposals = anonymiseProposals(
      [
        idea(2, { title: "Grok's kill switch", summary: 'A kill switch per flag, as Bob asked.', proposer: 'Grok', builders: ['Dana'] }),
        idea(7, { summary: 'Dana wants a hosted service.', proposer: 'ChatGPT' }),
      ],
      ['Claude', 'Bob'],
    );
    expect(proposals.map((proposal) => [proposal.label, proposal.ideaNumber])).toEqual([
      ['A', 2],
      ['B', 7],
    ]);
    const list = reviewList(proposals);
    expect(list).toBe(
      "Proposal A: a participant's kill switch\nA kill switch per flag, as a participant asked.\n\nProposal B: Idea 7\na participant wants a hosted service.",
    );
    expect(list).not.toMatch(/Grok|ChatGPT|Claude|Bob|Dana/);
  });

  it('labels past Z without repeating one', () => {
    expect([0, 1, 25, 26, 27].map(labelAt)).toEqual(['A', 'B', 'Z', 'AA', 'AB']);
  });
});
