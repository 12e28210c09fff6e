import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, pgliteHandle, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { QueryCounter } from '../../../src/db/query-counter.ts';
import { InboundRepository } from '../../../src/repositories/inbound-repository.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { clonePgliteTemplate, createThrowawayPostgres, ENGINES, type Engine } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');

/** A migrated database whose statements are counted. */
async function countedDatabase(engine: Engine, counter: QueryCounter): Promise<DatabaseHandle> {
  if (engine === 'pglite') return pgliteHandle(await clonePgliteTemplate(), { counter });
  const throwaway = await createThrowawayPostgres();
  const handle = openDatabase({ kind: 'postgres', url: throwaway.url }, { counter });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await throwaway.drop();
    },
  };
}

/** Statements `action` sends. */
async function statementsOf(counter: QueryCounter, action: () => Promise<unknown>): Promise<number> {
  const before = counter.total();
  await action();
  return counter.total() - before;
}

describe.each(ENGINES)('the turn path in single round trips on %s', (engine) => {
  const counter = new QueryCounter();
  let handle: DatabaseHandle;

  beforeEach(async () => {
    handle = await countedDatabase(engine, counter);
    await new SessionsRepository(handle.db).create(
      {
        id: 's1',
        parentId: null,
        transport: 'local',
        roomId: 'r1',
        roomUrl: null,
        originChannelId: null,
        originMessageId: null,
        topic: 't',
        status: 'active',
        createdBy: { id: 'u', name: 'U' },
      },
      now,
    );
  });
  afterEach(async () => handle.close());

  it('counts every statement, a transaction’s begin and commit included', async () => {
    const statements = await statementsOf(counter, () => handle.db.transaction().execute((trx) => trx.selectFrom('sessions').selectAll().execute()));
    expect(statements).toBe(3);
    expect(counter.top(1)[0]?.count).toBeGreaterThan(0);
  });

  it('stores a message in one statement, and a repeated source id in two without storing it again', async () => {
    const messages = new MessagesRepository(handle.db);
    const message = {
      sessionId: 's1',
      sourceId: 'local:1',
      speaker: { kind: 'human' as const, name: 'Ann' },
      role: 'user' as const,
      text: 'hi',
      deliveryStatus: 'received' as const,
    };
    expect(await statementsOf(counter, () => messages.insert(message, now))).toBe(1);
    let again: Awaited<ReturnType<MessagesRepository['insert']>> | undefined;
    expect(await statementsOf(counter, async () => (again = await messages.insert(message, now)))).toBe(2);
    expect(again).toMatchObject({ created: false, message: { number: 1, text: 'hi' } });
    expect(await messages.listForSession('s1')).toHaveLength(1);
  });

  it('claims due jobs with their runs in one statement, and completes one in one more', async () => {
    const jobs = new JobsRepository(handle.db);
    await jobs.enqueue({ kind: 'a', queue: 'room', payload: { n: 1 }, runAt: now }, now);
    await jobs.enqueue({ kind: 'a', queue: 'room', payload: { n: 2 }, runAt: now }, now);
    await jobs.enqueue({ kind: 'a', payload: { n: 3 }, runAt: now }, now);
    let claimed: Awaited<ReturnType<JobsRepository['claimDue']>> = [];
    expect(await statementsOf(counter, async () => (claimed = await jobs.claimDue('w1', now, 60_000, 10)))).toBe(1);
    // The second job of the room waits for the first: a queue keeps its order.
    expect(claimed.map((job) => job.payload)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(await statementsOf(counter, () => jobs.complete(claimed[0]!, now))).toBe(1);
    const runs = await handle.db.selectFrom('job_runs').select(['id', 'job_id', 'attempt', 'worker_id', 'outcome']).orderBy('id').execute();
    expect(runs).toEqual([
      { id: claimed[0]!.runId, job_id: claimed[0]!.id, attempt: 1, worker_id: 'w1', outcome: 'succeeded' },
      { id: claimed[1]!.runId, job_id: claimed[1]!.id, attempt: 1, worker_id: 'w1', outcome: null },
    ]);
    expect((await jobs.claimDue('w2', now, 60_000, 10)).map((job) => job.payload)).toEqual([{ n: 2 }]);
  });

  it('moves a read cursor forward in one statement, never back (snowflakes by value, other ids as text)', async () => {
    const inbound = new InboundRepository(handle.db);
    const cursor = async (channel: string) => (await inbound.cursors('discord')).get(channel);
    expect(await statementsOf(counter, () => inbound.advance('discord', 'c1', '9', now))).toBe(1);
    await inbound.advance('discord', 'c1', '10', now);
    await inbound.advance('discord', 'c1', '8', now);
    expect(await cursor('c1')).toBe('10');
    await inbound.advance('discord', 'c2', 'b', now);
    await inbound.advance('discord', 'c2', 'a', now);
    expect(await cursor('c2')).toBe('b');
    await inbound.advance('discord', 'c2', 'c', now);
    expect(await cursor('c2')).toBe('c');
  });
});
