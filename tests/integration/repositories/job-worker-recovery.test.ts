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
});
