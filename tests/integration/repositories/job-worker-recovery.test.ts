import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import type { JobOutcome } from '../../../src/services/jobs/job-types.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const logger = createLogger({ level: 'silent', secrets: [] });
const DEAD_PID = 4242;

describe.each(ENGINES)('a job worker after a crash on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;
  let clock: ManualClock;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    clock = new ManualClock();
  });
  afterEach(async () => handle.close());

  /** A worker whose wrap-up handler never returns: the process is killed while it runs. */
  async function crashDuringWrapUp(host: string): Promise<void> {
    const doomed = new JobWorker({ workerId: 'worker-dead', jobs, clock, logger, instance: { host, pid: DEAD_PID, isProcessAlive: () => true } });
    doomed.register('wrap_up', () => new Promise<JobOutcome>(() => undefined));
    await jobs.enqueue({ kind: 'wrap_up', payload: { sessionId: 's1' }, runAt: clock.now(), sessionId: 's1' }, clock.now());
    void doomed.runDue();
    // Counted in polls, not time: the doomed worker registers, reclaims and claims first (several statements on a busy machine).
    for (let tick = 0; tick < 1000 && (await jobs.countByStatus('wrap_up')).running !== 1; tick += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await jobs.countByStatus('wrap_up')).toEqual({ running: 1 });
  }

  function restarted(ran: string[]): JobWorker {
    const worker = new JobWorker({
      workerId: 'worker-new',
      jobs,
      clock,
      logger,
      instance: { host: 'box-1', pid: 5151, isProcessAlive: (pid) => pid !== DEAD_PID },
    });
    worker.register('wrap_up', async (job) => {
      ran.push(String(job.payload.sessionId));
      return { status: 'done' };
    });
    return worker;
  }

  it('finishes a wrap-up interrupted by a crash at once when the process restarts on the same machine', async () => {
    await crashDuringWrapUp('box-1');
    await clock.advance(3_000);
    const ran: string[] = [];
    await restarted(ran).runDue();
    expect(ran).toEqual(['s1']);
    expect(await jobs.countByStatus('wrap_up')).toEqual({ done: 1 });
  });

  it('takes over the jobs of an instance on another machine once its heartbeat is stale, long before its lease ends', async () => {
    await crashDuringWrapUp('box-2');
    const ran: string[] = [];
    const worker = restarted(ran);
    await clock.advance(3_000);
    await worker.runDue();
    expect(ran).toEqual([]);
    await clock.advance(20_000);
    await worker.runDue();
    expect(ran).toEqual(['s1']);
  });

  it('leaves the jobs of a live instance alone, and a clean stop leaves nothing to reclaim', async () => {
    const alive = new JobWorker({ workerId: 'worker-alive', jobs, clock, logger, instance: { host: 'box-2', pid: 77 } });
    let release: (outcome: JobOutcome) => void = () => undefined;
    // Awaited before the clock moves: on a loaded machine the claim can lag, and a release sent before the handler ran is lost.
    const started = new Promise<void>((handlerStarted) =>
      alive.register('wrap_up', () => new Promise<JobOutcome>((resolve) => ((release = resolve), handlerStarted()))),
    );
    await jobs.enqueue({ kind: 'wrap_up', payload: { sessionId: 's2' }, runAt: clock.now() }, clock.now());
    const running = alive.runDue();
    await started;
    const ran: string[] = [];
    const other = restarted(ran);
    for (let second = 0; second < 60; second += 5) {
      await clock.advance(5_000);
      await alive.runDue([]);
      await other.runDue();
    }
    expect(ran).toEqual([]);
    release({ status: 'done' });
    await running;
    await alive.stop();
    expect(await jobs.countByStatus('wrap_up')).toEqual({ done: 1 });
  });
  /** A worker that claims idea-ledger passes and never finishes one: killed while it runs them. */
  function doomedLedgerWorker(): JobWorker {
    const doomed = new JobWorker({ workerId: 'worker-dead', jobs, clock, logger, instance: { host: 'box-1', pid: DEAD_PID, isProcessAlive: () => true } });
    doomed.register('idea_ledger', () => new Promise<JobOutcome>(() => undefined));
    return doomed;
  }

  async function untilRunning(count: number): Promise<void> {
    for (let tick = 0; tick < 1000 && (await jobs.countByStatus('idea_ledger')).running !== count; tick += 1)
      await new Promise((resolve) => setImmediate(resolve));
    expect((await jobs.countByStatus('idea_ledger')).running).toBe(count);
  }

  const ledgerPass = () => ({ kind: 'idea_ledger', dedupeKey: 's1', payload: { sessionId: 's1' }, runAt: clock.now(), sessionId: 's1' });

  it('a crash while a deduplicated job ran, its next pass queued meanwhile: the twin runs once, and every other job still runs', async () => {
    const doomed = doomedLedgerWorker();
    await jobs.enqueue(ledgerPass(), clock.now());
    void doomed.runDue();
    await untilRunning(1);
    // The next message queues the session's next pass while this one runs: a pending twin of the running job.
    expect(await jobs.enqueue(ledgerPass(), clock.now())).not.toBeNull();
    await jobs.enqueue({ kind: 'wrap_up', payload: { sessionId: 's2' }, runAt: clock.now(), sessionId: 's2' }, clock.now());
    await clock.advance(3_000);

    // Before, the restarted worker's reclaim put the dead pass back to pending beside its twin, broke the pending-dedupe
    // index, and failed at every poll: nothing was claimed again, for any session (no delivery, no wrap-up).
    const passes: string[] = [];
    const ran: string[] = [];
    const worker = restarted(ran);
    worker.register('idea_ledger', async (job) => {
      passes.push(String(job.payload.sessionId));
      return { status: 'done' };
    });
    await worker.runDue();
    expect(ran).toEqual(['s2']);
    expect(passes).toEqual(['s1']);
    expect(await jobs.countByStatus('idea_ledger')).toEqual({ done: 1, superseded: 1 });
  });

  it('two runs of one deduplicated job left by a crash come back as one pending job', async () => {
    const doomed = doomedLedgerWorker();
    await jobs.enqueue(ledgerPass(), clock.now());
    void doomed.runDue();
    await untilRunning(1);
    await jobs.enqueue(ledgerPass(), clock.now());
    void doomed.runDue();
    await untilRunning(2);
    await clock.advance(3_000);
    const passes: string[] = [];
    const worker = restarted([]);
    worker.register('idea_ledger', async (job) => {
      passes.push(String(job.payload.sessionId));
      return { status: 'done' };
    });
    await worker.runDue();
    expect(passes).toEqual(['s1']);
    expect(await jobs.countByStatus('idea_ledger')).toEqual({ done: 1, superseded: 1 });
  });

  it('a retry or a postponement of a job whose twin was queued while it ran gives way to the twin', async () => {
    for (const back of ['retry', 'postpone'] as const) {
      await jobs.enqueue(ledgerPass(), clock.now());
      const [claimed] = await jobs.claimDue('worker-1', clock.now(), 60_000, 1, ['idea_ledger']);
      await jobs.enqueue(ledgerPass(), clock.now());
      const later = new Date(clock.now().getTime() + 5_000);
      if (back === 'retry') expect(await jobs.fail(claimed!, 'the model failed', later, clock.now())).toBe(false);
      else await jobs.postpone(claimed!, later, clock.now());
      expect(await jobs.countByStatus('idea_ledger')).toMatchObject({ pending: 1 });
      const [twin] = await jobs.claimDue('worker-1', clock.now(), 60_000, 1, ['idea_ledger']);
      await jobs.complete(twin!, clock.now());
    }
    expect(await jobs.countByStatus('idea_ledger')).toEqual({ done: 2, superseded: 2 });
  });

  it('a retry by a worker declared gone while it ran stays pending: the job put back meanwhile is not its own twin', async () => {
    // Seen after a database outage outlasted every heartbeat: another process declared this one gone and put its
    // running Notion write back to pending; this worker's retry then found the job itself pending, took it for a twin
    // and superseded it, and the summary never reached Notion.
    await jobs.enqueue({ ...ledgerPass(), kind: 'notion_sync' }, clock.now());
    await jobs.registerInstance({ id: 'worker-slow', host: 'box-2', pid: 77 }, clock.now());
    const [claimed] = await jobs.claimDue('worker-slow', clock.now(), 60_000, 1, ['notion_sync']);
    await clock.advance(30_000);
    await jobs.reclaimAbandoned('worker-new', clock.now(), new Date(clock.now().getTime() - 20_000), [], { everyGoneInstance: false });
    expect(await jobs.countByStatus('notion_sync')).toEqual({ pending: 1 });
    expect(await jobs.fail(claimed!, 'rate_limited', new Date(clock.now().getTime() + 2_000), clock.now())).toBe(false);
    expect(await jobs.countByStatus('notion_sync')).toEqual({ pending: 1 });
  });
});
