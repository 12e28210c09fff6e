import { getGlobalTraceProvider } from '@openai/agents';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/create-database.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { openAppTestDatabase } from '../support/databases.ts';
import { findRetainedKeys } from '../support/retained-keys.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
let database: DatabaseHandle;
/** The sessions the first test ran to their end. */
let endedIds: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await openAppTestDatabase();
  test = await startTestApp(
    fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '2', CONVERSATION_TIMEOUT_MINUTES: '600' }),
    { database },
  );
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

/** A session planned (and approved, unless `approve` is false); its room. */
async function plannedSession(topic: string, maxMessages: number, approve = true): Promise<string> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages, timeoutMinutes: 600 })));
  await test.say(null, topic);
  await test.settle();
  const room = test.transport.rooms.at(-1)!.roomId;
  if (approve) {
    await test.command(room, 'approve');
    await test.settle();
  }
  return room;
}

describe('a process that has run sessions to their end', () => {
  it('keeps nothing of them in memory: every per-session entry goes when its session ends, however it ends', async () => {
    const rooms = [
      // Ended by its message limit, with a person speaking in it.
      await plannedSession('How should a small team adopt feature flags?', 8),
      // Stopped by a person mid-discussion.
      await plannedSession('Which metrics matter for a new API?', 40),
      // Cancelled before its plan was approved.
      await plannedSession('What should the onboarding week hold?', 12, false),
    ];
    // A session that goes on: its passes are what let the process look over what it keeps of the others.
    const live = await plannedSession('How do we plan the next quarter?', 200);
    await test.say(rooms[0]!, 'What about kill switches for the payment flow?');
    await test.settle();
    await test.command(rooms[1]!, 'stop');
    await test.command(rooms[2]!, 'stop');
    await test.settle();
    // The wrap-ups' records and summaries, and whatever else their ends scheduled; an hour later the live session
    // goes on.
    await test.clock.advance(15 * 60_000);
    await test.settle();
    await test.clock.advance(60 * 60_000);
    await test.say(live, 'Where do we start?');
    await test.settle();
    await test.clock.advance(2 * 60_000);
    await test.settle();
    // The owner's pass, once a second in production, lets go of the sessions that ended.
    await test.app.services.ownership.tick();
    await test.settle();
    await getGlobalTraceProvider().forceFlush();

    const sessions = await Promise.all(rooms.map((room) => test.app.repositories.sessions.findByRoom('memory', room)));
    expect(sessions.map((session) => session?.status)).toEqual(['completed', 'stopped', 'cancelled']);
    endedIds = sessions.map((session) => session!.id);
    const traceIds = await Promise.all(
      sessions.map(async (session) => (await test.app.repositories.messages.listForSession(session!.id)).flatMap((message) => message.traceId ?? [])),
    );
    const ids = new Set([...sessions.map((session) => session!.id), ...traceIds.flat()]);
    const retained = findRetainedKeys({ app: test.app, traces: getGlobalTraceProvider() }, ids);
    // The messages delivered here are kept up to a bound (REMEMBERED), whatever their session: a cache, not a leak.
    expect(retained.filter((path) => !path.includes('.delivery.posted.deliveredHere['))).toEqual([]);
    // The live session is still known where it should be: the search finds what is there.
    const liveSession = await test.app.repositories.sessions.findByRoom('memory', live);
    expect(liveSession?.status).toBe('active');
    const liveId = liveSession!.id;
    expect(findRetainedKeys({ app: test.app }, new Set([liveId]))).toEqual(expect.arrayContaining([expect.stringContaining('coordinator.rounds.runtimes')]));
  });

  it('keeps in the database only their record once a month of housekeeping has passed: no job, run, lease or paused run', async () => {
    expect(endedIds).toHaveLength(3);
    // What their ends scheduled runs meanwhile (the next-steps reminders a week on, their deliveries), then ends a day old.
    await test.clock.advance(31 * 24 * 60 * 60_000);
    await test.settle();
    await test.clock.advance(2 * 24 * 60 * 60_000);
    await test.settle();
    // Production queues it every minute (tests run their worker by hand).
    await test.app.services.housekeeping.run();
    const { rows: tables } = await sql<{ table: string }>`
      select table_name as table from information_schema.columns where column_name = 'session_id' and table_schema = current_schema()`.execute(database.db);
    const left: Record<string, number> = {};
    for (const { table } of tables) {
      const { rows } = await sql<{ count: number }>`
        select count(*)::int as count from ${sql.table(table)} where session_id in (${sql.join(endedIds)})`.execute(database.db);
      if (rows[0]!.count > 0) left[table] = rows[0]!.count;
    }
    // What a session leaves on purpose: its record, its ideas, what later sessions recall of it. The traces go by their
    // own start times (TRACE_RETENTION_DAYS), which the SDK takes from the wall clock, not this test's.
    const RECORD = ['messages', 'documents', 'ideas', 'idea_notes', 'idea_passes', 'session_embeddings', 'critique_rounds', 'spans', 'traces'];
    expect(Object.keys(left).filter((table) => !RECORD.includes(table))).toEqual([]);
    expect(Object.keys(left)).toEqual(expect.arrayContaining(['messages', 'documents']));
  });
});
