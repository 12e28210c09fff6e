/**
 * A session's loop ends for good when its session is aborted (a shutdown, a lost lease, `!stop`), whatever it was
 * doing, and a loop that fails is tried again after a pause: neither may start again at once, for ever (once seen as a
 * test worker filling its heap in a shutdown, the loop reading a closed database thousands of times a second).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeCoordinatorFixtures, coordinatorFixture } from '../../../support/coordinator-fixture.ts';
import { findRetainedKeys } from '../../../support/retained-keys.ts';
import { until } from '../../../support/service-doubles.ts';

afterEach(closeCoordinatorFixtures);

/** A fixture in an AI round whose three answers are all being shown (a person's round finds every seat taken). */
async function everySeatWriting() {
  const fixture = await coordinatorFixture({ maxAiResponsesPerTurn: 3 });
  const { repositories, session, clock, coordinator, turns } = fixture;
  await repositories.messages.insert(
    { sessionId: session.id, speaker: { kind: 'moderator', name: 'Moderator' }, role: 'system', text: 'Welcome: share ideas.', deliveryStatus: 'delivered' },
    clock.now(),
  );
  coordinator.kick(session.id);
  await until(() => turns.calls.length === 3, 'an AI round of three');
  for (const call of turns.calls) call.control.markVisible();
  return fixture;
}

const interrupted = { status: 'interrupted', message: null, cut: 'handed_over' } as const;

describe('an aborted session', () => {
  it("ends its loop when the abort lands while a person's round is seated and every seat is still writing", async () => {
    const { repositories, session, coordinator, turns, say } = await everySeatWriting();
    // The abort comes while the seating reads the history (a shutdown's, say), and the cut turns end.
    const messages = repositories.messages;
    for (const method of ['recentAtHorizon', 'changesSince'] as const) {
      const read = messages[method].bind(messages) as (...args: unknown[]) => Promise<unknown>;
      vi.spyOn(messages, method).mockImplementation(async (...args: unknown[]) => {
        const result = await read(...args);
        coordinator.abort(session.id, 'handed_over');
        for (const call of turns.open()) call.finish(interrupted);
        return result as never;
      });
    }
    await say('Is anyone still there?');
    await until(() => turns.open().length === 0, 'the cut turns ended');
    await coordinator.idle(session.id);
    expect(coordinator.busySessions()).toEqual([]);
    expect(turns.calls).toHaveLength(3);
  });

  it('ends its loop when a message was folded into the next round', async () => {
    const { session, coordinator, turns, say } = await everySeatWriting();
    await say('One more thing, quickly.', { folded: true });
    coordinator.abort(session.id, 'handed_over');
    for (const call of turns.open()) call.finish(interrupted);
    await coordinator.idle(session.id);
    expect(coordinator.busySessions()).toEqual([]);
    expect(turns.calls).toHaveLength(3);
  });
});

describe('a session handed over', () => {
  const runtimesOf = (coordinator: object, sessionId: string) =>
    findRetainedKeys(coordinator, new Set([sessionId])).filter((path) => path.includes('.runtimes'));

  it('is forgotten once the turns its cut left have ended: the process keeps no runtime of it', async () => {
    const { session, coordinator, turns } = await everySeatWriting();
    coordinator.abort(session.id, 'handed_over');
    expect(runtimesOf(coordinator, session.id)).toHaveLength(1);
    for (const call of turns.open()) call.finish(interrupted);
    await coordinator.idle(session.id);
    await until(() => runtimesOf(coordinator, session.id).length === 0, 'the runtime forgotten');
  });

  it('is kept when it starts again here before its cut turns ended', async () => {
    const { session, coordinator, turns, say } = await everySeatWriting();
    coordinator.abort(session.id, 'handed_over');
    await say('Still with us?');
    for (const call of turns.open()) call.finish(interrupted);
    await until(() => turns.calls.length > 3, 'the person answered');
    expect(runtimesOf(coordinator, session.id)).toHaveLength(1);
  });
});

describe('a session loop that fails', () => {
  it('answers the people queued after a pause, not by failing again at once', async () => {
    const { repositories, session, coordinator, turns, say, clock } = await coordinatorFixture();
    const sessions = repositories.sessions;
    const findById = sessions.findById.bind(sessions);
    // Bounded, so that a loop that spins on the failure ends the test instead of hanging its worker.
    let failures = 0;
    let failing = true;
    vi.spyOn(sessions, 'findById').mockImplementation(async (id) => {
      if (failing && failures < 50) {
        failures += 1;
        throw new Error('a bug in reading the session');
      }
      return findById(id);
    });
    const message = await say('Where do we start?', { counted: false });
    await until(() => failures > 0, 'the loop failed');
    await coordinator.idle(session.id);
    expect(failures).toBe(1);
    expect(coordinator.busySessions()).toEqual([]);
    expect(turns.calls).toHaveLength(0);

    failing = false;
    await clock.advance(5_000);
    await until(() => turns.calls.length > 0, 'the person answered');
    for (const call of turns.calls) expect(call.answering.map((entry) => entry.id)).toEqual([message.id]);
    expect(failures).toBe(1);
  });
});
