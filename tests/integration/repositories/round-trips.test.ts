import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pgliteHandle, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { QueryCounter } from '../../../src/db/query-counter.ts';
import { IdeasRepository } from '../../../src/repositories/ideas-repository.ts';
import { InboundRepository } from '../../../src/repositories/inbound-repository.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { clonePgliteTemplate, ENGINES, openEmptyPostgres, type Engine } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');

/** A migrated database whose statements are counted. */
async function countedDatabase(engine: Engine, counter: QueryCounter): Promise<DatabaseHandle> {
  if (engine === 'pglite') return pgliteHandle(await clonePgliteTemplate(), { counter });
  const handle = await openEmptyPostgres({ counter });
  await migrateToLatest(handle.db);
  return handle;
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

  it('stores a message with its usage and its delivery job in one statement, and a message with its reply targets in one', async () => {
    const messages = new MessagesRepository(handle.db);
    const question = await messages.insert(
      { sessionId: 's1', speaker: { kind: 'human', name: 'Ann' }, role: 'user', text: 'why?', deliveryStatus: 'received' },
      now,
    );
    const delivery = { kind: 'deliver_message', queue: 'room:local:r1', payload: { actions: [] }, runAt: now, maxRetries: 12 };
    const answer = {
      sessionId: 's1',
      speaker: { kind: 'participant' as const, name: 'Claude' },
      role: 'assistant' as const,
      text: 'because',
      deliveryStatus: 'pending' as const,
    };
    let stored: Awaited<ReturnType<MessagesRepository['insert']>> | undefined;
    const statements = await statementsOf(
      counter,
      async () =>
        (stored = await messages.insertWithEffects(
          { ...answer, replyTo: [question.message.id], inputTokens: 10, outputTokens: 5 },
          { usage: { messages: 1, tokens: 15, costUsd: 0.5 }, delivery },
          now,
        )),
    );
    expect(statements).toBe(1);
    const id = stored!.message.id;
    expect(stored!.message).toMatchObject({ number: 2, text: 'because', replyTo: [question.message.id] });
    const jobs = await new JobsRepository(handle.db).listForSession('s1');
    expect(jobs.map((job) => [job.kind, job.queue, job.dedupe_key, job.payload, job.max_retries, job.status])).toEqual([
      ['deliver_message', 'room:local:r1', `message:${id}`, { actions: [], messageId: id }, 12, 'pending'],
    ]);
    expect(await new SessionsRepository(handle.db).findById('s1')).toMatchObject({ messageCount: 1, totalTokens: 15, totalCostUsd: 0.5 });
    // An internal note: stored and counted, never queued.
    await messages.insertWithEffects(
      { ...answer, text: 'aside', deliveryStatus: 'internal' },
      { usage: { messages: 0, tokens: 1, costUsd: 0 }, delivery: null },
      now,
    );
    expect(await new JobsRepository(handle.db).listForSession('s1')).toHaveLength(1);
    expect(await new SessionsRepository(handle.db).findById('s1')).toMatchObject({ messageCount: 1, totalTokens: 16 });
    let found: Awaited<ReturnType<MessagesRepository['findWithReplyTargets']>> = null;
    expect(await statementsOf(counter, async () => (found = await messages.findWithReplyTargets(id)))).toBe(1);
    expect(found!.message.text).toBe('because');
    expect(found!.targets.map((target) => target.text)).toEqual(['why?']);
    expect(await messages.findWithReplyTargets(id + 100)).toBeNull();
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
    const cursor = async (channel: string) => (await inbound.cursors('discord', [channel])).get(channel);
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

  it('stores a person’s message and counts their turn in one statement, answering the session as the count left it', async () => {
    const messages = new MessagesRepository(handle.db);
    const sessions = new SessionsRepository(handle.db);
    const said = {
      sessionId: 's1',
      sourceId: 'local:9',
      speaker: { kind: 'human' as const, name: 'Ann', id: 'u' },
      role: 'user' as const,
      text: 'and the rollback?',
      deliveryStatus: 'received' as const,
    };
    await sessions.update('s1', { aiRoundsSinceHuman: 3 }, now);
    let stored: Awaited<ReturnType<MessagesRepository['insertCountingTurn']>> | undefined;
    const later = new Date(now.getTime() + 1234);
    expect(await statementsOf(counter, async () => (stored = await messages.insertCountingTurn(said, later)))).toBe(1);
    expect(stored?.created).toBe(true);
    expect(stored?.message).toMatchObject({ number: 1, text: 'and the rollback?', speaker: { id: 'u' } });
    expect(stored?.session).toEqual(await sessions.findById('s1'));
    expect(stored?.session).toMatchObject({ messageCount: 1, aiRoundsSinceHuman: 0, updatedAt: later });
    // The same message again: stored before, so nothing is counted twice.
    const again = await messages.insertCountingTurn(said, later);
    expect(again).toMatchObject({ created: false, session: null });
    expect((await sessions.findById('s1'))?.messageCount).toBe(1);
  });

  it('claims a person’s message and advances its channel’s cursor in one statement, only for the first claimant', async () => {
    const inbound = new InboundRepository(handle.db);
    const process = { id: 'wrk-a', again: false };
    let first = false;
    expect(await statementsOf(counter, async () => (first = await inbound.claimAndAdvance('discord', 'c1', '100', now, process)))).toBe(1);
    expect(first).toBe(true);
    expect(await inbound.claimAndAdvance('discord', 'c1', '100', now, process)).toBe(false);
    expect(await inbound.claimAndAdvance('discord', 'c1', '99', now, process)).toBe(true);
    expect((await inbound.cursors('discord', ['c1'])).get('c1')).toBe('100');
    expect(await inbound.claimAndAdvance('discord', 'c1', '101', now, process)).toBe(true);
    expect((await inbound.cursors('discord', ['c1'])).get('c1')).toBe('101');
  });

  it('takes a claim again only for the process that made it, when it tries the message again', async () => {
    const inbound = new InboundRepository(handle.db);
    expect(await inbound.claimAndAdvance('discord', 'c2', '200', now, { id: 'wrk-a', again: false })).toBe(true);
    expect(await inbound.claimAndAdvance('discord', 'c2', '200', now, { id: 'wrk-b', again: true })).toBe(false);
    let again = false;
    expect(await statementsOf(counter, async () => (again = await inbound.claimAndAdvance('discord', 'c2', '200', now, { id: 'wrk-a', again: true })))).toBe(1);
    expect(again).toBe(true);
    expect((await inbound.cursors('discord', ['c1', 'c2'])).get('c2')).toBe('200');
  });

  it('reads a session’s idea ledger (ideas, notes, passes) in one statement', async () => {
    const ideas = new IdeasRepository(handle.db);
    const pass = { sessionId: 's1', number: 1, lastMessageId: 3, messages: 3, candidates: 1, newIdeas: 1, duplicates: 0, newObjections: 0 };
    const idea = {
      sessionId: 's1',
      number: 1,
      title: 'Cache',
      summary: 'A cache',
      proposer: 'Claude',
      builders: [],
      objectors: [],
      messageIds: [3],
      mentions: 1,
      firstPass: 1,
      embedding: null,
    };
    await ideas.savePass({ pass, ideas: [idea, { ...idea, number: 2, title: 'Queue' }], notes: [] }, now);
    let ledger: Awaited<ReturnType<IdeasRepository['ledger']>> | undefined;
    expect(await statementsOf(counter, async () => (ledger = await ideas.ledger('s1')))).toBe(1);
    expect(ledger!.ideas.map((entry) => entry.title)).toEqual(['Cache', 'Queue']);
    expect(ledger!.passes).toHaveLength(1);
  });
});
