import { describe, expect, it } from 'vitest';
import { selectSpeakers } from '../../../../src/services/coordinator/speaker-selection.ts';

describe('selectSpeakers', () => {
  it('prefers whoever has spoken least, then whoever spoke longest ago', () => {
    const chosen = selectSpeakers(
      [
        { id: 'claude', spokenCount: 5, lastMessageId: 40 },
        { id: 'chatgpt', spokenCount: 2, lastMessageId: 38 },
        { id: 'grok', spokenCount: 2, lastMessageId: 12 },
        { id: 'cursor', spokenCount: 4, lastMessageId: 20 },
      ],
      2,
      0,
    );
    expect(chosen).toEqual(['grok', 'chatgpt']);
  });

  it('never leaves the same participant out forever when there are more participants than seats', () => {
    const spoken = new Map([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 0],
    ]);
    let lastId = 0;
    const last = new Map<string, number>();
    for (let round = 0; round < 8; round += 1) {
      const candidates = [...spoken.keys()].map((id) => ({ id, spokenCount: spoken.get(id)!, lastMessageId: last.get(id) ?? 0 }));
      for (const id of selectSpeakers(candidates, 3, round)) {
        spoken.set(id, spoken.get(id)! + 1);
        lastId += 1;
        last.set(id, lastId);
      }
    }
    const counts = [...spoken.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('rotates ties so the first in the roster is not always chosen', () => {
    const fresh = [
      { id: 'a', spokenCount: 0, lastMessageId: 0 },
      { id: 'b', spokenCount: 0, lastMessageId: 0 },
      { id: 'c', spokenCount: 0, lastMessageId: 0 },
    ];
    expect(selectSpeakers(fresh, 1, 0)).toEqual(['a']);
    expect(selectSpeakers(fresh, 1, 1)).toEqual(['b']);
    expect(selectSpeakers(fresh, 1, 2)).toEqual(['c']);
  });

  it('returns nobody for no candidates or no seats', () => {
    expect(selectSpeakers([], 3, 0)).toEqual([]);
    expect(selectSpeakers([{ id: 'a', spokenCount: 0, lastMessageId: 0 }], 0, 0)).toEqual([]);
  });
});
