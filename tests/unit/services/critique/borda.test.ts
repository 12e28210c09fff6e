import { describe, expect, it } from 'vitest';
import type { CritiqueBallot } from '../../../../src/core/critique.ts';
import { bordaCount, labelOf, normaliseBallot } from '../../../../src/services/critique/borda.ts';

const LABELS = ['A', 'B', 'C'];

function ballot(participant: string, ranking: string[]): CritiqueBallot {
  return { participant, ranking, weakestAssumptions: [], reason: '' };
}

const summary = (ballots: CritiqueBallot[], labels = LABELS) =>
  bordaCount(ballots, labels).map((standing) => `${standing.place}:${standing.label}:${standing.points}:${standing.firstPlaces}`);

describe('bordaCount', () => {
  it('gives n-1 points to a first place down to 0 for the last, and orders by points', () => {
    expect(summary([ballot('Claude', ['B', 'A', 'C']), ballot('ChatGPT', ['B', 'C', 'A']), ballot('Grok', ['A', 'B', 'C'])])).toEqual([
      '1:B:5:2',
      '2:A:3:1',
      '3:C:1:0',
    ]);
  });

  it('breaks equal points by first places, and shares a place only when both are equal', () => {
    // A: 2+0 = 2 with one first place; B: 1+1 = 2 with none; C: 0+2 = 2 with one.
    expect(summary([ballot('x', ['A', 'B', 'C']), ballot('y', ['C', 'B', 'A'])])).toEqual(['1:A:2:1', '1:C:2:1', '3:B:2:0']);
  });

  it('shares the places a partial ballot left among the proposals it did not rank', () => {
    // Over four proposals, ranking only B leaves places worth 2, 1 and 0 to A, C and D: 1 each.
    expect(summary([ballot('x', ['B'])], ['A', 'B', 'C', 'D'])).toEqual(['1:B:3:1', '2:A:1:0', '2:C:1:0', '2:D:1:0']);
  });

  it('with no ballot, every proposal shares the first place with nothing', () => {
    expect(summary([])).toEqual(['1:A:0:0', '1:B:0:0', '1:C:0:0']);
  });
});

describe('normaliseBallot', () => {
  it('reads labels in any spelling, keeps each once, drops unknown ones', () => {
    const read = normaliseBallot(
      'Claude',
      {
        ranking: ['Proposal B', 'b', '(C)', 'proposal_a', 'Z', 'Proposal D'],
        weakestAssumptions: [
          { proposal: 'Proposal B', assumption: ' Vendors stay cheap. ' },
          { proposal: 'B', assumption: 'A second one for B.' },
          { proposal: 'Q', assumption: 'Unknown label.' },
          { proposal: 'C', assumption: '  ' },
        ],
        reason: ' B scales. ',
      },
      LABELS,
    );
    expect(read).toEqual({
      participant: 'Claude',
      ranking: ['B', 'C', 'A'],
      weakestAssumptions: [{ label: 'B', assumption: 'Vendors stay cheap.' }],
      reason: 'B scales.',
    });
  });

  it('is null when nothing it ranked is a proposal', () => {
    expect(normaliseBallot('Grok', { ranking: ['the first one', 'X'], weakestAssumptions: [], reason: '' }, LABELS)).toBeNull();
  });

  it('labelOf does not take a word for a label', () => {
    expect(labelOf('Both', LABELS)).toBeNull();
    expect(labelOf('Proposal: c', LABELS)).toBe('C');
  });
});
