import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { InboundRepository } from '../../../src/repositories/inbound-repository.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MaintenanceRepository } from '../../../src/repositories/maintenance-repository.ts';
import { RunStatesRepository } from '../../../src/repositories/run-states-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { TracesRepository } from '../../../src/repositories/traces-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00Z');
const later = (hours: number) => new Date(start.getTime() + hours * 3_600_000);

describe.each(ENGINES)('MaintenanceRepository on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;
  let maintenance: MaintenanceRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    maintenance = new MaintenanceRepository(handle.db, engine);
  });
  afterEach(async () => handle.close());

  /** Runs one job of `kind` to its end at `at`: done, or failed once then done. */
  async function ranJob(kind: string, at: Date, failedOnce = false): Promise<void> {
    await jobs.enqueue({ kind, payload: {}, runAt: at }, at);
    let [claimed] = await jobs.claimDue('w1', at, 60_000, 1, [kind]);
    if (failedOnce) {
      await jobs.fail(claimed!, 'network', at, at);
      [claimed] = await jobs.claimDue('w1', at, 60_000, 1, [kind]);
    }
    await jobs.complete(claimed!, at);
  }

  const remaining = async () =>
    (await handle.db.selectFrom('jobs').select(['kind', 'status']).orderBy('id').execute()).map((row) => `${row.kind}:${row.status}`);
  const runsLeft = async () => Number((await sql<{ count: number }>`select count(*)::int as count from job_runs`.execute(handle.db)).rows[0]?.count);

  it('deletes the processes stopped before the cutoff with their message claims, a batch at a time; keeps live and newer ones', async () => {
    const inbound = new InboundRepository(handle.db);
    for (const id of ['wrk-old', 'wrk-recent', 'wrk-live']) await jobs.registerInstance({ id, host: 'h', pid: 1 }, start);
    for (const [index, id] of ['wrk-old', 'wrk-old', 'wrk-old', 'wrk-recent', 'wrk-live'].entries()) {
      await inbound.claimAndAdvance('discord', 'room', String(100 + index), id === 'wrk-old' ? start : later(25), { id, again: false });
    }
    await jobs.stopInstance('wrk-old', later(1));
    await jobs.stopInstance('wrk-recent', later(30));
    const claims = async () =>
      (await handle.db.selectFrom('inbound_claims').select('external_id').orderBy('external_id').execute()).map((row) => row.external_id);
    const processes = async () => (await handle.db.selectFrom('worker_instances').select('id').orderBy('id').execute()).map((row) => row.id);

    // Two of the old process's three claims: its row stays while one of its claims does.
    expect(await maintenance.deleteStoppedProcesses(later(24), 2)).toEqual({ claims: 2, processes: 0 });
    expect(await processes()).toEqual(['wrk-live', 'wrk-old', 'wrk-recent']);
    expect(await maintenance.deleteStoppedProcesses(later(24), 2)).toEqual({ claims: 1, processes: 1 });
    expect(await claims()).toEqual(['103', '104']);
    expect(await processes()).toEqual(['wrk-live', 'wrk-recent']);
    expect(await maintenance.deleteStoppedProcesses(later(24), 2)).toEqual({ claims: 0, processes: 0 });
    expect(await maintenance.deleteStoppedProcesses(later(24 * 60), 10)).toEqual({ claims: 2, processes: 1 });
    expect(await claims()).toEqual([]);
    expect(await processes()).toEqual(['wrk-live']);
  });

  it("deletes a live process's claims once older than the cutoff, a batch at a time, and keeps the process and its newer claims", async () => {
    const inbound = new InboundRepository(handle.db);
    await jobs.registerInstance({ id: 'wrk-live', host: 'h', pid: 1 }, start);
    for (const [externalId, at] of [
      ['300', start],
      ['301', later(24)],
      ['302', later(24 * 29)],
      ['303', later(24 * 31)],
    ] as const) {
      await inbound.claimAndAdvance('discord', 'room', externalId, at, { id: 'wrk-live', again: false });
    }
    const claims = async () =>
      (await handle.db.selectFrom('inbound_claims').select('external_id').orderBy('external_id').execute()).map((row) => row.external_id);

    // A month after the second claim: the two made before then go, one a run with a batch of one.
    expect(await maintenance.deleteStoppedProcesses(later(24 * 30), 1)).toEqual({ claims: 1, processes: 0 });
    expect(await maintenance.deleteStoppedProcesses(later(24 * 30), 10)).toEqual({ claims: 2, processes: 0 });
    expect(await maintenance.deleteStoppedProcesses(later(24 * 30), 10)).toEqual({ claims: 0, processes: 0 });
    expect(await claims()).toEqual(['303']);
    // The claims left still keep their messages from being taken twice, and the cursor still stands past them all.
    expect(await inbound.claimAndAdvance('discord', 'room', '303', later(24 * 31), { id: 'wrk-other', again: false })).toBe(false);
    expect(await inbound.cursors('discord', ['room'])).toEqual(new Map([['room', '303']]));
    expect((await handle.db.selectFrom('worker_instances').select('id').execute()).map((row) => row.id)).toEqual(['wrk-live']);
  });

  it("deletes the claims made before claims named their process by their age, as a stopped process's", async () => {
    // Rows as migration 0027 left them: no claimant.
    for (const [externalId, at] of [
      ['200', start],
      ['201', start],
      ['202', later(24 * 45)],
    ] as const) {
      await handle.db.insertInto('inbound_claims').values({ transport: 'discord', external_id: externalId, claimed_at: at, settled: true }).execute();
    }
    const claims = async () =>
      (await handle.db.selectFrom('inbound_claims').select('external_id').orderBy('external_id').execute()).map((row) => row.external_id);

    expect(await maintenance.deleteStoppedProcesses(later(24 * 30), 1)).toEqual({ claims: 1, processes: 0 });
    expect(await maintenance.deleteStoppedProcesses(later(24 * 30), 10)).toEqual({ claims: 1, processes: 0 });
    expect(await claims()).toEqual(['202']);
  });

  it('deletes the paused runs no approval can take any more once old, a batch at a time; keeps a plan waiting for approval', async () => {
    const sessions = new SessionsRepository(handle.db);
    const runStates = new RunStatesRepository(handle.db);
    const base = {
      parentId: null,
      transport: 'local',
      roomUrl: null,
      originChannelId: null,
      originMessageId: null,
      topic: 't',
      createdBy: { id: 'u', name: 'U' },
    };
    await sessions.create({ ...base, id: 'waiting', roomId: 'r1', status: 'awaiting_approval' }, start);
    await sessions.create({ ...base, id: 'ended', roomId: 'r2', status: 'cancelled' }, start);
    await runStates.save('waiting', 'plan', 'first plan', start);
    const waiting = await runStates.save('waiting', 'plan', 'revised plan', start);
    const resumed = await runStates.save('ended', 'plan', 'approved plan', start);
    await runStates.resolve(resumed, 'resumed', start);
    await runStates.save('ended', 'other', 'never taken', start);
    const recent = await runStates.save('ended', 'plan', 'new plan', later(30));
    await runStates.resolve(recent, 'resumed', later(30));
    const left = async () => (await handle.db.selectFrom('run_states').select('id').orderBy('id').execute()).map((row) => row.id);

    expect(await maintenance.deleteSpentRunStates(later(24), 2)).toBe(2);
    expect(await maintenance.deleteSpentRunStates(later(24), 2)).toBe(1);
    expect(await maintenance.deleteSpentRunStates(later(24), 2)).toBe(0);
    expect(await left()).toEqual([waiting, recent]);
  });

  it('deletes jobs done before the cutoff with their runs; keeps newer ones, unfinished ones, and ones that ever failed', async () => {
    await ranJob('old', start);
    await ranJob('old', start);
    await ranJob('failed-once', start, true);
    await ranJob('recent', later(30));
    await jobs.enqueue({ kind: 'waiting', payload: {}, runAt: start }, start);

    expect(await maintenance.deleteFinishedJobs(later(24), 100)).toBe(2);
    expect(await remaining()).toEqual(['failed-once:done', 'recent:done', 'waiting:pending']);
    // The failed job's two runs and the recent job's one remain.
    expect(await runsLeft()).toBe(3);
  });

  it('deletes the jobs cancelled or superseded before the cutoff too; keeps newer ones', async () => {
    await jobs.enqueue({ kind: 'timeout', payload: {}, runAt: later(2), sessionId: 's1' }, start);
    await jobs.cancelPending('s1', null, later(1));
    // A pass put back to wait while its twin was queued: the twin does its work, this one is superseded.
    await jobs.enqueue({ kind: 'pass', payload: {}, runAt: start, dedupeKey: 'k' }, start);
    const [running] = await jobs.claimDue('w1', start, 60_000, 1, ['pass']);
    await jobs.enqueueOnce({ kind: 'pass', payload: {}, runAt: later(30), dedupeKey: 'k' }, start);
    await jobs.postpone(running!, later(2), later(1));
    await jobs.enqueue({ kind: 'late', payload: {}, runAt: later(30), sessionId: 's2' }, later(30));
    await jobs.cancelPending('s2', null, later(30));
    expect(await remaining()).toEqual(['timeout:cancelled', 'pass:superseded', 'pass:pending', 'late:cancelled']);

    expect(await maintenance.deleteFinishedJobs(later(24), 100)).toBe(2);
    expect(await remaining()).toEqual(['pass:pending', 'late:cancelled']);
  });

  it('deletes at most `limit` jobs a call, oldest first', async () => {
    for (let index = 0; index < 3; index += 1) await ranJob(`old-${index}`, start);
    expect(await maintenance.deleteFinishedJobs(later(24), 2)).toBe(2);
    expect(await remaining()).toEqual(['old-2:done']);
    expect(await maintenance.deleteFinishedJobs(later(24), 2)).toBe(1);
    expect(await maintenance.deleteFinishedJobs(later(24), 2)).toBe(0);
  });

  // PGlite only: on a Postgres server the space comes back when its autovacuum comes by, in its own time.
  if (engine === 'pglite')
    it('keeps the trace tables to the size of what is kept, as traces past their retention go (PGlite has no autovacuum)', async () => {
      const traces = new TracesRepository(handle.db);
      const size = async () =>
        Number((await sql<{ bytes: number }>`select pg_total_relation_size('spans')::float8 as bytes`.execute(handle.db)).rows[0]?.bytes);
      /** A day of traces: 20 traces of 100 spans, each span's data ~1 KB that compresses badly, as a conversation's. */
      const day = (index: number) =>
        sql`
      with added as (
        insert into traces (id, name, started_at) select 'trace_' || ${index} || '_' || t, 'Turn', ${later(24 * index)}::timestamptz
        from generate_series(1, 20) t returning id)
      insert into spans (id, trace_id, type, name, started_at, data)
      select added.id || '_' || s, added.id, 'generation', 'model', ${later(24 * index)}::timestamptz,
        jsonb_build_object('input', repeat(md5(random()::text), 30))
      from added, generate_series(1, 100) s`.execute(handle.db);
      for (let index = 0; index < 5; index += 1) await day(index);
      await maintenance.vacuum();
      const kept = await size();
      // Ten more days, each deleting the oldest day as retention does and vacuuming as housekeeping does.
      for (let index = 5; index < 15; index += 1) {
        expect(await traces.deleteOlderThan(later(24 * (index - 4)), 1000)).toBe(20);
        await maintenance.vacuum();
        await day(index);
      }
      // Without the vacuum PGlite's spans grew to three times their size (their freed space never taken again).
      expect(await size()).toBeLessThan(kept * 1.5);
    });

  it(engine === 'pglite' ? 'vacuums the churning tables (PGlite has no autovacuum)' : 'leaves vacuuming to the server', async () => {
    for (let index = 0; index < 20; index += 1) await ranJob('churn', start);
    const reltuples = async () =>
      Number((await sql<{ tuples: number }>`select reltuples::int as tuples from pg_class where relname = 'jobs'`.execute(handle.db)).rows[0]?.tuples);
    if (engine === 'pglite') expect(await reltuples()).toBeLessThan(20);
    expect(await maintenance.vacuum()).toBe(engine === 'pglite');
    // The vacuum counted the rows (never counted before: -1 or 0). The server's autovacuum does so in its own time.
    if (engine === 'pglite') expect(await reltuples()).toBe(20);
  });
});
