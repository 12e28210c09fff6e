import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import { newRuntime, nextPeople } from '../../../../src/services/coordinator/coordinator-runtime.ts';
import { noteReadAhead, noteSeatedRound, peopleToAnswer, type ReadAhead } from '../../../../src/services/coordinator/read-ahead.ts';
import { chatMessage } from '../../../support/chat-messages.ts';
import { closeCoordinatorFixtures, coordinatorFixture } from '../../../support/coordinator-fixture.ts';
import { until } from '../../../support/service-doubles.ts';

afterEach(closeCoordinatorFixtures);

const at = new Date('2026-03-01T10:00:00Z');

function message(id: number, kind: 'human' | 'participant', replyTo: number[] = [], createdAt = at): ChatMessage {
  const speaker = kind === 'human' ? { kind, name: 'Bob', id: 'u-bob' } : { kind, name: 'Claude', id: 'claude' };
  return chatMessage({ id, speaker, text: `message ${id}`, role: kind === 'human' ? 'user' : 'assistant', replyTo, createdAt });
}

describe('read-ahead notes', () => {
  it("notes the people's messages no stored answer replies to, other than the round's own and those before the start", () => {
    const readAhead: ReadAhead = new Map();
    const history = [
      message(1, 'human', [], new Date(at.getTime() - 1)),
      message(2, 'human'),
      message(3, 'participant', [2]),
      message(4, 'human'),
      message(5, 'human'),
    ];
    expect(noteReadAhead(readAhead, history, [history[4]!], ['claude', 'grok'], at.getTime())).toBe(1);
    expect([...readAhead.entries()]).toEqual([[4, new Set(['claude', 'grok'])]]);
    // Read again by another round, its readers add up.
    noteReadAhead(readAhead, history, [], ['chatgpt'], at.getTime());
    expect(readAhead.get(4)).toEqual(new Set(['claude', 'grok', 'chatgpt']));
    expect(readAhead.get(5)).toEqual(new Set(['chatgpt']));
  });

  it("looks at the last 24 messages of a round's history only (one read ahead was stored a moment before)", () => {
    const readAhead: ReadAhead = new Map();
    const history = [message(1, 'human'), ...Array.from({ length: 24 }, (_, index) => message(index + 2, 'participant'))];
    expect(noteReadAhead(readAhead, history, [], ['claude'], 0)).toBe(0);
    expect(noteReadAhead(readAhead, history.slice(1).concat(message(30, 'human')), [], ['claude'], 0)).toBe(1);
  });

  it('keeps at most 32 notes, forgetting the oldest first', () => {
    const readAhead: ReadAhead = new Map();
    for (let id = 1; id <= 40; id += 1) noteReadAhead(readAhead, [message(id, 'human')], [], ['claude'], 0);
    expect(readAhead.size).toBe(32);
    expect(readAhead.has(8)).toBe(false);
    expect(readAhead.has(9)).toBe(true);
  });

  it('answers the messages nobody read as usual, and leaves out those read ahead', () => {
    const readAhead: ReadAhead = new Map([[2, new Set(['claude', 'chatgpt', 'grok'])]]);
    const taken = [message(2, 'human'), message(3, 'human')];
    expect(peopleToAnswer(readAhead, taken, ['claude', 'chatgpt', 'grok'], 3)).toEqual({ humans: [taken[1]] });
    expect(readAhead.size).toBe(0);
  });

  it('drops people read ahead by a full round, and seats the others when some did not read them all', () => {
    const everyone = ['claude', 'chatgpt', 'grok'];
    const taken = [message(2, 'human'), message(3, 'human')];
    const full = new Map([
      [2, new Set(everyone)],
      [3, new Set(everyone)],
    ]);
    expect(peopleToAnswer(full, taken, everyone, 3)).toEqual({ humans: [], answeredAhead: true });
    // Two readers fill a round of two.
    expect(peopleToAnswer(new Map([[2, new Set(['claude', 'grok'])]]), [taken[0]!], everyone, 2)).toEqual({ humans: [], answeredAhead: true });
    // Grok missed message 3: it answers both; Claude read both and does not answer again.
    const partial = new Map([
      [2, new Set(everyone)],
      [3, new Set(['claude', 'chatgpt'])],
    ]);
    expect(peopleToAnswer(partial, taken, everyone, 3)).toEqual({ humans: taken, only: new Set(['grok']) });
    // Kept until a round is seated for them: queued again while Grok is still busy, they are still known as read.
    expect(peopleToAnswer(partial, taken, everyone, 3)).toEqual({ humans: taken, only: new Set(['grok']) });
    const runtime = { readAhead: partial, seenUpTo: 0 };
    expect(noteSeatedRound(runtime, { startedAt: at }, [...taken, message(4, 'participant', [2, 3])], taken, [{ participant: { id: 'grok' } }])).toBe(0);
    expect(partial.size).toBe(0);
    expect(runtime.seenUpTo).toBe(4);
  });
});

describe('folded messages', () => {
  const everyone = [{ id: 'claude' }, { id: 'chatgpt' }, { id: 'grok' }];

  it('drops a folded message a seated round read, and keeps one it did not read although a newer one was', () => {
    const runtime = newRuntime();
    // The round read 4 and 6; 5 was stored by another process at the same moment and committed after 6.
    const read = [message(4, 'human'), message(6, 'human')];
    noteSeatedRound(runtime, { startedAt: at }, read, [], [{ participant: { id: 'claude' } }]);
    expect(runtime.seenUpTo).toBe(6);
    runtime.folded.push(message(4, 'human'), message(5, 'human'), message(7, 'human'));
    expect(nextPeople(runtime, everyone, 3).humans.map((taken) => taken.id)).toEqual([5, 7]);
    // The read one's note is spent with it; the other read message stays noted.
    expect([...runtime.readAhead.keys()]).toEqual([6]);
  });
});

describe('Coordinator with a message read before it was handed', () => {
  /** A person's message stored and counted as another process's gateway does, not handed to this coordinator (yet). */
  async function storedElsewhere(fixture: Awaited<ReturnType<typeof coordinatorFixture>>, text: string): Promise<ChatMessage> {
    const { repositories, session, clock } = fixture;
    const { message: stored } = await repositories.messages.insert(
      { sessionId: session.id, speaker: { kind: 'human', name: 'Bob', id: 'u-bob' }, role: 'user', text, deliveryStatus: 'received' },
      clock.now(),
    );
    await repositories.sessions.countHumanTurn(session.id, clock.now());
    return stored;
  }

  const answersTo = (calls: { participant: { id: string }; answering: ChatMessage[] }[], id: number) =>
    calls.filter((call) => call.answering.some((entry) => entry.id === id)).map((call) => call.participant.id);

  it('a round that read it answers it; handed during that round, it neither cuts it nor starts a second one', async () => {
    const fixture = await coordinatorFixture({ maxAiResponsesPerTurn: 3, maxAiRoundsWithoutHuman: 2 });
    const { turns, coordinator, session, say, posts } = fixture;
    await say('How do we roll out flags?');
    await until(() => turns.calls.length === 3, "the person's round");
    const late = await storedElsewhere(fixture, 'And who owns the rollback?');
    for (const call of turns.calls.slice(0, 3)) call.finish(await turns.answer(call));
    // The AI round that follows reads the message in its history: each of its speakers answers it.
    await until(() => turns.calls.length === 6, 'an AI round');
    expect(answersTo(turns.calls.slice(3), late.id)).toHaveLength(3);
    coordinator.onHumanMessage((await fixture.repositories.sessions.findById(session.id)) as Session, late);
    await new Promise((resolve) => setImmediate(resolve));
    for (const call of turns.calls.slice(3)) expect(call.control.signal.aborted).toBe(false);
    turns.auto = (call) => turns.answer(call);
    for (const call of turns.calls.slice(3, 6)) call.finish(await turns.answer(call));
    await coordinator.idle(session.id);
    // Nobody answered it twice; the round that read it counted as a person's, so one AI round followed, then the guard.
    const byParticipant = answersTo(turns.calls, late.id);
    expect(new Set(byParticipant).size).toBe(byParticipant.length);
    expect(turns.calls).toHaveLength(9);
    expect(posts.filter((post) => post.text.startsWith('The participants are waiting for a person'))).toHaveLength(1);
  });

  it('handed after the round that read it ended, it starts no round and no waiting notice', async () => {
    const fixture = await coordinatorFixture({ maxAiResponsesPerTurn: 3, maxAiRoundsWithoutHuman: 1 });
    const { turns, coordinator, session, say, posts } = fixture;
    const late = await storedElsewhere(fixture, 'Stored a moment before the next person spoke.');
    await say('How do we roll out flags?');
    await until(() => turns.calls.length === 3, "the person's round");
    expect(answersTo(turns.calls, late.id)).toHaveLength(3);
    for (const call of turns.calls) call.finish(await turns.answer(call));
    await coordinator.idle(session.id);
    turns.auto = (call) => turns.answer(call);
    coordinator.onHumanMessage((await fixture.repositories.sessions.findById(session.id)) as Session, late);
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(3);
    expect(posts).toEqual([]);
  });
});
