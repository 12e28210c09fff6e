/**
 * `!pause`: the answers being written finish and no round starts after them, whether the loop learns of the pause
 * from the lifecycle's event (here) or from the owner's pass (a pause handled in another process).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeCoordinatorFixtures, coordinatorFixture } from '../../../support/coordinator-fixture.ts';
import { stopInactive, type Owned } from '../../../../src/services/scale/owned-session.ts';
import { until } from '../../../support/service-doubles.ts';

afterEach(closeCoordinatorFixtures);

/** Pauses the session as the lifecycle does: its status, then the event. */
async function pause(fixture: Awaited<ReturnType<typeof coordinatorFixture>>): Promise<void> {
  const { repositories, session, clock, events } = fixture;
  await repositories.sessions.update(session.id, { status: 'paused', pausedAt: clock.now() }, clock.now());
  events.publish({ type: 'session_paused', sessionId: session.id });
}

describe('a pause', () => {
  it('between rounds starts no round, though the hooks after the last one changed nothing', async () => {
    const fixture = await coordinatorFixture({ maxAiRoundsWithoutHuman: 3, maxAiResponsesPerTurn: 3 });
    const { turns, coordinator, hooks, say } = fixture;
    turns.auto = (call) => turns.answer(call);
    // Paused while the documentation's hook runs: the loop holds the session as the round's update returned it.
    let asked = 0;
    hooks.onMessage = async () => {
      hooks.onMessage = null;
      asked = turns.calls.length;
      await pause(fixture);
    };
    await say('Where do we start?');
    await coordinator.idle();
    expect(asked).toBe(3);
    expect(turns.calls).toHaveLength(3);
  });

  it('while a round is seated keeps it from starting; the person it was for is answered after !continue', async () => {
    const fixture = await coordinatorFixture({ maxAiRoundsWithoutHuman: 0, maxAiResponsesPerTurn: 3 });
    const { turns, coordinator, hooks, say, repositories, session, clock, events } = fixture;
    turns.auto = (call) => turns.answer(call);
    // The room's flush before the round is slow (Discord asked to wait): the pause comes meanwhile.
    hooks.flushRoom = async () => {
      hooks.flushRoom = null;
      await pause(fixture);
    };
    const alice = await say('Where do we start?');
    await coordinator.idle();
    expect(turns.calls).toHaveLength(0);

    await repositories.sessions.update(session.id, { status: 'active', pausedAt: null }, clock.now());
    events.publish({ type: 'session_resumed', sessionId: session.id });
    await until(() => turns.calls.length === 3, 'the round after !continue');
    await coordinator.idle();
    expect(turns.calls.map((call) => call.answering.map((message) => message.id))).toEqual([[alice.id], [alice.id], [alice.id]]);
  });
});

describe("the owner's pass", () => {
  const owned = (): Owned => ({ floor: 0, handed: new Map(), paused: false });

  it('tells the rounds of a paused session once and cuts nothing; lets an ended one go and cuts its rounds', () => {
    const calls: string[] = [];
    const rounds = { abort: (id: string) => void calls.push(`abort ${id}`), pause: (id: string) => void calls.push(`pause ${id}`) };
    const held = new Map([
      ['s-paused', owned()],
      ['s-ended', owned()],
      ['s-active', owned()],
    ]);
    const statuses = new Map([
      ['s-paused', 'paused'],
      ['s-ended', 'stopped'],
      ['s-active', 'active'],
    ]);
    expect(stopInactive(held, statuses, rounds)).toEqual(['s-ended']);
    expect(stopInactive(held, statuses, rounds)).toEqual([]);
    expect(calls).toEqual(['pause s-paused', 'abort s-ended']);
    expect([...held.keys()]).toEqual(['s-paused', 's-active']);
  });
});
