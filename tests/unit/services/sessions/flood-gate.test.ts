import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { ChatMessage } from '../../../../src/core/domain.ts';
import { FloodGate } from '../../../../src/services/sessions/flood-gate.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

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

describe('FloodGate reading the history only when it decides', () => {
  const answer = (clock: ManualClock, sessionId = 's1'): ChatMessage =>
    chatMessage({ id: 1, sessionId, speaker: { kind: 'participant', name: 'Claude' }, text: 'An answer.', deliveryStatus: 'pending', createdAt: clock.now() });

  it('counts quick messages answered in this process without a lookup, and a talking pace without one either', async () => {
    const clock = new ManualClock();
    const events = new InMemoryEventBus();
    const gate = new FloodGate(clock, settings, events);
    let lookups = 0;
    const lookup = async () => (lookups += 1) > 0;
    const decisions: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      decisions.push(await gate.pace('s1', 'ada', lookup));
      await clock.advance(500);
      events.publish({ type: 'message', message: answer(clock) });
      await clock.advance(500);
    }
    for (let index = 0; index < 3; index += 1) {
      decisions.push(await gate.pace('s1', 'bob', lookup));
      await clock.advance(15_000);
    }
    expect(decisions.every((decision) => decision === 'counted')).toBe(true);
    expect(lookups).toBe(0);
  });

  it('asks the history before folding: an answer stored elsewhere keeps the message counted, none folds it', async () => {
    const clock = new ManualClock();
    const gate = new FloodGate(clock, settings, new InMemoryEventBus());
    const asked: boolean[] = [];
    const history = (answered: boolean) => async () => (asked.push(answered), answered);
    expect(await gate.pace('s1', 'ada', history(true))).toBe('counted');
    expect(await gate.pace('s1', 'ada', history(true))).toBe('counted');
    expect(await gate.pace('s1', 'ada', history(false))).toBe('folded_first');
    expect(asked).toEqual([true, false]);
  });

  it('keeps sessions apart: an answer in one session is no answer in another', async () => {
    const clock = new ManualClock();
    const events = new InMemoryEventBus();
    const gate = new FloodGate(clock, settings, events);
    expect(await gate.pace('s1', 'ada', async () => false)).toBe('counted');
    events.publish({ type: 'message', message: answer(clock, 's2') });
    await clock.advance(100);
    expect(await gate.pace('s1', 'ada', async () => false)).toBe('folded_first');
  });
});

describe('FloodGate deciding before a message is stored', () => {
  it('admits as counted what it can decide without the history, and records nothing when it cannot', async () => {
    const clock = new ManualClock();
    const gate = new FloodGate(clock, settings, new InMemoryEventBus());
    expect(gate.admitIfCertain('s1', 'ada')).toBe(true);
    // A second message within the burst window: only the history can tell a quick answer from a flood.
    expect(gate.admitIfCertain('s1', 'ada')).toBe(false);
    expect(await gate.pace('s1', 'ada', async () => false)).toBe('folded_first');
    await clock.advance(2_500);
    expect(gate.admitIfCertain('s1', 'ada')).toBe(true);
    expect(gate.admitIfCertain('s1', 'bob')).toBe(true);
  });

  it('takes back an admission whose message was not stored, and keeps one that was', () => {
    const gate = new FloodGate(new ManualClock(), settings, new InMemoryEventBus());
    expect(gate.admitIfCertain('s1', 'ada')).toBe(true);
    gate.settleAdmission('s1', 'ada', false);
    // The retry of a message the database refused is no burst: the refused attempt never happened.
    expect(gate.admitIfCertain('s1', 'ada')).toBe(true);
    gate.settleAdmission('s1', 'ada', true);
    expect(gate.admitIfCertain('s1', 'ada')).toBe(false);
    gate.settleAdmission('s1', 'ada', false);
    expect(gate.admitIfCertain('s1', 'ada')).toBe(false);
  });

  it('counts nothing it is unsure of when no message may count at all', () => {
    const gate = new FloodGate(new ManualClock(), () => ({ burstWindowMs: 2000, messagesPerMinute: 0 }), new InMemoryEventBus());
    expect(gate.admitIfCertain('s1', 'ada')).toBe(false);
  });
});

describe('FloodGate memory', () => {
  it('forgets a session once it ended, so a burst after a restart of the session is paced afresh', () => {
    const clock = new ManualClock();
    const events = new InMemoryEventBus();
    const gate = new FloodGate(clock, settings, events);
    expect(gate.admit('s1', 'ada')).toBe('counted');
    expect(gate.admit('s1', 'ada')).not.toBe('counted');
    events.publish({ type: 'session_ended', sessionId: 's1' });
    expect(gate.admit('s1', 'ada')).toBe('counted');
  });
});
