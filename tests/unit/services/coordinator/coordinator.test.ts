import { afterEach, describe, expect, it, vi } from 'vitest';
import { cutReason } from '../../../../src/services/coordinator/turn-control.ts';
import { closeCoordinatorFixtures, coordinatorFixture } from '../../../support/coordinator-fixture.ts';
import { until } from '../../../support/service-doubles.ts';

const WAITING_NOTICE = 'The participants are waiting for a person';

afterEach(closeCoordinatorFixtures);

describe('Coordinator', () => {
  it("answers a person's message with a round of at most maxAiResponsesPerTurn speakers, each answering it", async () => {
    const { turns, coordinator, session, say, repositories, checked, documented } = await coordinatorFixture({ maxAiResponsesPerTurn: 2 });
    const message = await say('How do we roll out flags safely?');
    await until(() => turns.calls.length === 2, 'two turns');
    const speakers = turns.calls.map((call) => call.participant.name);
    expect(new Set(speakers).size).toBe(2);
    for (const call of turns.calls) expect(call.answering.map((entry) => entry.id)).toContain(message.id);
    // Nobody answered (both withheld): no AI round follows.
    for (const call of turns.calls) call.finish({ status: 'withheld', reason: 'test' });
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(2);
    expect((await repositories.sessions.findById(session.id))?.aiRoundsSinceHuman).toBe(1);
    expect(checked).toEqual([session.id]);
    expect(documented).toEqual([session.id]);
    expect(coordinator.busySessions()).toEqual([]);
  });

  it('a round cut by a shutdown does not count toward the loop guard: the next owner lets the cut participants answer', async () => {
    const { turns, coordinator, session, say, repositories } = await coordinatorFixture({ maxAiResponsesPerTurn: 3 });
    await say('Which flags first?');
    await until(() => turns.calls.length === 3, 'three turns');
    const [answered, ...cut] = turns.calls;
    answered?.finish(await turns.answer(answered));
    const shutdown = coordinator.shutdown();
    for (const call of cut) call.finish({ status: 'interrupted', message: null, cut: 'stopped' });
    await shutdown;
    expect((await repositories.sessions.findById(session.id))?.aiRoundsSinceHuman).toBe(0);
  });

  it('cuts the turns in flight when session_ended is published, and starts no further round', async () => {
    const { turns, coordinator, session, say, events, hints } = await coordinatorFixture();
    await say('Go!');
    await until(() => turns.calls.length === 2, 'two turns');
    expect(turns.calls.every((call) => !call.control.signal.aborted)).toBe(true);
    hints.invite(session.id, 'Grok');

    events.publish({ type: 'session_ended', sessionId: session.id });

    for (const call of turns.calls) expect(cutReason(call.control.signal)).toBe('stopped');
    expect(hints.current(session.id)).toEqual({ invited: [], held: [] });
    // Even answers that land after the cut (they had finished) lead to no new round.
    for (const call of turns.calls) call.finish(await turns.answer(call));
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(2);
    expect(coordinator.busySessions()).toEqual([]);
  });

  it('starts AI rounds when session_resumed is published', async () => {
    const { turns, coordinator, session, events, repositories, clock } = await coordinatorFixture();
    const { message } = await repositories.messages.insert(
      { sessionId: session.id, speaker: { kind: 'human', name: 'Alice', id: 'u-alice' }, role: 'user', text: 'Thoughts?', deliveryStatus: 'received' },
      clock.now(),
    );
    expect(turns.calls).toHaveLength(0);

    events.publish({ type: 'session_resumed', sessionId: session.id });

    await until(() => turns.calls.length === 2, 'an AI round');
    for (const call of turns.calls) expect(call.answering.map((entry) => entry.id)).toEqual([message.id]);
    for (const call of turns.calls) call.finish({ status: 'withheld', reason: 'test' });
    await coordinator.idle(session.id);
    // An AI round adds to the rounds without a person.
    expect((await repositories.sessions.findById(session.id))?.aiRoundsSinceHuman).toBe(1);
  });

  it('a participant still writing when a person spoke answers them next, even where the loop guard allows no AI round', async () => {
    const { turns, coordinator, session, say, repositories, clock } = await coordinatorFixture({ maxAiResponsesPerTurn: 3, maxAiRoundsWithoutHuman: 1 });
    await repositories.messages.insert(
      { sessionId: session.id, speaker: { kind: 'moderator', name: 'Moderator' }, role: 'system', text: 'Welcome: share ideas.', deliveryStatus: 'delivered' },
      clock.now(),
    );
    coordinator.kick(session.id);
    await until(() => turns.calls.length === 3, 'an AI round');
    const [writing, ...unseen] = turns.calls;
    writing!.control.markVisible();
    const question = await say('What would you drop first?');
    // The answers nobody saw yet yield; the one being written goes on, and the two others answer the person now.
    await until(() => turns.calls.length === 5, "the person's round");
    for (const call of unseen) call.finish({ status: 'interrupted', message: null, cut: 'preempted' });
    const first = turns.calls.slice(3);
    expect(first.map((call) => call.participant.id)).not.toContain(writing!.participant.id);
    for (const call of first) call.finish(await turns.answer(call));
    writing!.finish(await turns.answer(writing!));
    // Its earlier answer done, the third answers the person too: owed, not an AI round (the guard allows none).
    await until(() => turns.calls.length === 6, 'the owed answer');
    const owed = turns.calls[5]!;
    expect(owed.participant.id).toBe(writing!.participant.id);
    expect(owed.answering.map((entry) => entry.id)).toContain(question.id);
    owed.finish(await turns.answer(owed));
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(6);
  });

  it('lets an invited participant speak first and holds a held one out; the hints are spent by that round', async () => {
    // Without hints, this round goes to ChatGPT and Grok.
    const baseline = await coordinatorFixture({ maxAiResponsesPerTurn: 2 });
    await baseline.say('Who goes first?');
    await until(() => baseline.turns.calls.length === 2, 'two turns');
    expect(baseline.turns.calls.map((call) => call.participant.name)).toEqual(['ChatGPT', 'Grok']);

    const { turns, session, say, hints } = await coordinatorFixture({ maxAiResponsesPerTurn: 2 });
    hints.invite(session.id, 'Claude');
    hints.hold(session.id, 'ChatGPT');
    await say('Who goes first?');
    await until(() => turns.calls.length === 2, 'two turns');
    expect(turns.calls.map((call) => call.participant.name)).toEqual(['Claude', 'Grok']);
    expect(hints.current(session.id)).toEqual({ invited: [], held: [] });
  });

  it('posts the waiting notice once maxAiRoundsWithoutHuman AI rounds followed a person, and starts no more', async () => {
    const { turns, coordinator, session, say, posts, repositories } = await coordinatorFixture({ maxAiResponsesPerTurn: 2, maxAiRoundsWithoutHuman: 3 });
    turns.auto = (call) => turns.answer(call);
    await say('Discuss among yourselves.');
    await coordinator.idle(session.id);
    // One round for the person, then AI rounds until the guard: the person's round counts as the first.
    expect(turns.calls).toHaveLength(6);
    expect(posts.filter((post) => post.text.startsWith(WAITING_NOTICE))).toHaveLength(1);
    expect((await repositories.sessions.findById(session.id))?.aiRoundsSinceHuman).toBe(3);

    // A kick with the guard still reached posts the notice again and starts nothing.
    coordinator.kick(session.id);
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(6);
    expect(posts.filter((post) => post.text.startsWith(WAITING_NOTICE))).toHaveLength(2);
  });

  it('reads the session after a round only when its hooks say they changed it', async () => {
    const { turns, coordinator, session, say, repositories, hooks, clock } = await coordinatorFixture({ maxAiResponsesPerTurn: 2, maxAiRoundsWithoutHuman: 3 });
    const reads = vi.spyOn(repositories.sessions, 'findById');
    turns.auto = (call) => turns.answer(call);
    await say('Discuss among yourselves.');
    await coordinator.idle(session.id);
    // No read: the loop starts with the row the message's count returned, and the three rounds' hooks changed nothing,
    // so each round goes on with the session its update returned.
    expect(turns.calls).toHaveLength(6);
    expect(reads).not.toHaveBeenCalled();

    // A hook that pauses the session (as a Moderator's check could end it) says so: the next round is not started.
    hooks.afterRound = async (current) => void (await repositories.sessions.update(current.id, { status: 'paused' }, clock.now()));
    reads.mockClear();
    await say('One more idea, please.');
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(8);
    // The one after the hook that changed it, and the loop's next look, which finds it paused.
    expect(reads).toHaveBeenCalledTimes(2);
    expect((await repositories.sessions.findById(session.id))?.status).toBe('paused');
  });

  it('reads the session for a person only when the row was not handed over by the count, or a loop was running', async () => {
    const { turns, coordinator, session, say, repositories } = await coordinatorFixture({ maxAiResponsesPerTurn: 2, maxAiRoundsWithoutHuman: 1 });
    const reads = vi.spyOn(repositories.sessions, 'findById');
    // Handed over with an older row (as a takeover does): the loop reads the session first.
    await say('First question.', { counted: false });
    await until(() => turns.calls.length === 2, 'two turns');
    expect(reads).toHaveBeenCalledTimes(1);
    // A counted message while that loop runs: the loop reads, as the round's own writes may be newer than its row.
    await say('And a second one.');
    for (const call of turns.calls) call.finish({ status: 'withheld', reason: 'test' });
    await until(() => turns.calls.length === 4, 'the second person answered');
    for (const call of turns.calls.slice(2)) call.finish({ status: 'withheld', reason: 'test' });
    await coordinator.idle(session.id);
    expect(reads).toHaveBeenCalledTimes(2);
    expect((await repositories.sessions.findById(session.id))?.messageCount).toBe(2);
  });

  it('with a limit of 1 or 0 the participants answer each person and the room waits without a notice after every answer', async () => {
    for (const limit of [1, 0]) {
      const { turns, coordinator, session, say, posts } = await coordinatorFixture({ maxAiResponsesPerTurn: 2, maxAiRoundsWithoutHuman: limit });
      turns.auto = (call) => turns.answer(call);
      await say('First question?');
      await coordinator.idle(session.id);
      await say('Second question?');
      await coordinator.idle(session.id);
      // Two people's rounds of two answers each, no AI round between them, and no notice after either.
      expect(turns.calls).toHaveLength(4);
      expect(posts.filter((post) => post.text.startsWith(WAITING_NOTICE))).toHaveLength(0);

      // A kick (approval, `!continue`) meets the guard: the room is told once, and with 0 not to try `!continue`.
      coordinator.kick(session.id);
      await coordinator.idle(session.id);
      expect(turns.calls).toHaveLength(4);
      const notices = posts.filter((post) => post.text.startsWith(WAITING_NOTICE)).map((post) => post.text);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.includes('!continue')).toBe(limit !== 0);
    }
  });

  it('ends the session through the ender when a round reaches the message limit', async () => {
    const { turns, coordinator, session, say, ended } = await coordinatorFixture({ maxMessages: 3, maxAiResponsesPerTurn: 3 });
    turns.auto = (call) => turns.answer(call);
    await say('Quick one.');
    await coordinator.idle(session.id);
    // The person's message took one of the three: two seats were left.
    expect(turns.calls).toHaveLength(2);
    expect(ended).toEqual([{ sessionId: session.id, status: 'completed', reason: 'the message limit was reached' }]);
  });

  it('ends the session, without a round, when its time ran out on the clock', async () => {
    const { turns, coordinator, session, say, ended, clock } = await coordinatorFixture({ timeoutMinutes: 30 });
    await clock.advance(29 * 60_000);
    await say('Still here');
    await until(() => turns.calls.length === 2, 'a round within the time');
    for (const call of turns.calls) call.finish({ status: 'withheld', reason: 'test' });
    await coordinator.idle(session.id);
    expect(ended).toEqual([]);

    await clock.advance(60_000);
    await say('Time?');
    await coordinator.idle(session.id);
    expect(turns.calls).toHaveLength(2);
    expect(ended).toEqual([{ sessionId: session.id, status: 'completed', reason: 'the time limit was reached' }]);
  });
});
