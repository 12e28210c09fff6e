import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/core/domain.ts';
import { OPENING_GRACE_MS, openingState, unansweredPeople } from '../../../../src/services/scale/unanswered-people.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 9, minute));

function message(id: number, kind: 'human' | 'participant', minute: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    sessionId: 's1',
    speaker: kind === 'human' ? { kind, name: 'Ada', id: 'ada' } : { kind, name: 'Claude', id: 'claude' },
    role: kind === 'human' ? 'user' : 'assistant',
    text: `message ${id}`,
    replyTo: [],
    createdAt: at(minute),
    ...extra,
  } as ChatMessage;
}

describe('unansweredPeople (a takeover answers whom the old owner did not)', () => {
  const session = { startedAt: at(1) };

  it('owes an answer to a person no participant answered, and not to one who was answered', () => {
    const recent = [message(1, 'human', 2), message(2, 'participant', 3, { replyTo: [1] }), message(3, 'human', 4)];
    expect(unansweredPeople(session, recent).map((entry) => entry.id)).toEqual([3]);
  });

  it('counts an answer cut short by the old owner’s stop as no answer', () => {
    const recent = [message(1, 'human', 2), message(2, 'participant', 3, { replyTo: [1], interrupted: true })];
    expect(unansweredPeople(session, recent).map((entry) => entry.id)).toEqual([1]);
  });

  it("owes nothing to a person the room's notice answered (every model only repeated itself); other notices answer nobody", () => {
    const notice = (id: number, replyTo: number[]) =>
      message(id, 'participant', 3, { speaker: { kind: 'system', name: 'Brainstorm' }, role: 'system', replyTo, text: 'repeated their own answers' });
    const recent = [message(1, 'human', 2), notice(2, [1]), message(3, 'human', 4), notice(4, [])];
    expect(unansweredPeople(session, recent).map((entry) => entry.id)).toEqual([3]);
  });

  it('leaves out what was said before the discussion began (the topic and plan comments)', () => {
    expect(unansweredPeople(session, [message(1, 'human', 0)])).toEqual([]);
  });
});

describe('openingState (a session adopted while its approval writes the opening)', () => {
  const session = { startedAt: at(1) };
  const after = (milliseconds: number) => new Date(at(1).getTime() + milliseconds);

  it('awaits the opening while nothing was said since the start, within the grace; then it is overdue', () => {
    const planning = [message(1, 'human', 0)];
    expect(openingState(session, planning, after(5_000))).toBe('awaiting');
    expect(openingState(session, planning, after(OPENING_GRACE_MS))).toBe('overdue');
  });

  it('is opened once anything was said since the start, and for a session that never started', () => {
    expect(openingState(session, [message(1, 'human', 0), message(2, 'participant', 1)], after(5_000))).toBe('opened');
    expect(openingState({ startedAt: null }, [], after(5_000))).toBe('opened');
  });
});
