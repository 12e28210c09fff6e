import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { FloodGate } from '../../../src/services/sessions/flood-gate.ts';

const settings = () => ({ burstWindowMs: 2000, messagesPerMinute: 6 });

describe('FloodGate', () => {
  it('counts messages at a talking pace, one turn each', async () => {
    const clock = new ManualClock();
    const gate = new FloodGate(clock, settings);
    const decisions: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      decisions.push(gate.admit('s1', 'ada'));
      await clock.advance(8000);
    }
    expect(decisions).toEqual(['counted', 'counted', 'counted', 'counted', 'counted']);
  });

  it('folds a burst into the first message of it, with one notice', () => {
    const gate = new FloodGate(new ManualClock(), settings);
    const decisions = Array.from({ length: 50 }, () => gate.admit('s1', 'ada'));
    expect(decisions[0]).toBe('counted');
    expect(decisions[1]).toBe('folded_first');
    expect(decisions.slice(2).every((decision) => decision === 'folded')).toBe(true);
  });

  it('caps the sustained rate per person, and paces people apart from each other', async () => {
    const clock = new ManualClock();
    const gate = new FloodGate(clock, settings);
    const ada: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      ada.push(gate.admit('s1', 'ada'));
      expect(gate.admit('s1', `person-${index}`)).toBe('counted');
      await clock.advance(3000);
    }
    expect(ada.filter((decision) => decision === 'counted')).toHaveLength(6);
    await clock.advance(60_000);
    expect(gate.admit('s1', 'ada')).toBe('counted');
  });
});

describe('FloodGate in a conversation', () => {
  it('counts every quick message the room answered in between: a fast talker is no flood', () => {
    const gate = new FloodGate(new ManualClock(), settings);
    const decisions = Array.from({ length: 20 }, (_, index) => gate.admit('s1', 'ada', index > 0));
    expect(decisions.every((decision) => decision === 'counted')).toBe(true);
  });
});
