/**
 * A lease whose acquire the server committed while the connection dropped before its answer came: the process holds
 * the session in the database without knowing it. It must take it up at its next passes once the database answers,
 * not leave the room silent until its own lease lapses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError } from '../../../src/core/database-unreachable.ts';
import { randomIds } from '../../../src/core/ids.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../../support/databases.ts';
import { MemoryTransport } from '../../support/memory-transport.ts';
import { scriptedPlan } from '../../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp } from '../../support/test-app.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
});
afterAll(async () => {
  await fake?.close();
  await database?.drop();
});

describe('a session lease taken while the answer was lost', () => {
  it('is taken up a third of a lease after the database answers again, before the lease lapses', async () => {
    const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url, SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' });
    const clock = new ManualClock('2026-07-01T09:00:00Z');
    const transport = new MemoryTransport('memory', 'lost-lease');
    const location = { kind: 'postgres' as const, url: database.url };
    const first = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    const second = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    try {
      fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
      await first.say(null, 'Lost lease drill: who carries on?');
      await first.settle();
      const room = transport.rooms.at(-1)!.roomId;
      await first.command(room, 'approve');
      await first.settle();
      const session = await first.app.repositories.sessions.findByRoom('memory', room);
      expect(first.app.services.ownership.holds(session!.id)).toBe(true);
      // The first process dies; once its lease lapses the second adopts the session, and that answer is lost.
      await first.app.services.ownership.stop();
      await first.app.services.coordinator.shutdown();
      await clock.advance(16_000);
      const leases = second.app.repositories.leases;
      const acquire = leases.acquire.bind(leases);
      let lost = 0;
      leases.acquire = async (...args) => {
        const taken = await acquire(...args);
        if (lost++ > 0) return taken;
        throw new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });
      };
      await expect(second.app.services.ownership.tick()).rejects.toBeInstanceOf(DatabaseUnreachableError);
      expect(second.app.services.ownership.holds(session!.id)).toBe(false);

      await second.app.services.ownership.tick();
      await clock.advance(6_000);
      await second.app.services.ownership.tick();
      expect(second.app.services.ownership.holds(session!.id)).toBe(true);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
