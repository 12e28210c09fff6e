import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository, type ClaimedJob } from '../../../src/repositories/jobs-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const logger = createLogger({ level: 'silent', secrets: [] });

/** The real repository, counting the claims the worker sends. */
class CountingJobs extends JobsRepository {
  claims = 0;
  /** Claims that came back (a claim is counted in `claims` when it is sent). */
  answered = 0;
  /** Holds the next claim's answer until it settles (to nudge while a claim is on its way). */
  holdNext: Promise<void> | null = null;

  override async claimDue(...args: Parameters<JobsRepository['claimDue']>): Promise<ClaimedJob[]> {
    this.claims += 1;
    const hold = this.holdNext;
    this.holdNext = null;
    const claimed = await super.claimDue(...args);
    await hold;
    this.answered += 1;
    return claimed;
  }
}

describe.each(ENGINES)('when a job worker claims on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: CountingJobs;
  let clock: ManualClock;
  let worker: JobWorker;
  let ran: string[];

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new CountingJobs(handle.db);
    clock = new ManualClock();
    ran = [];
    // The poll never fires within a test: only nudges and the ends of jobs make the worker claim.
    worker = new JobWorker({ workerId: 'worker-1', jobs, clock, logger, pollMs: 600_000 });
  });
  afterEach(async () => {
    await worker.stop();
    await handle.close();
  });

  function registerDeliveries(gate?: Promise<void>): void {
    worker.register('deliver', async (job) => {
      ran.push(String(job.payload.text));
      if (job.payload.text === 'first' && gate) await gate;
      return { status: 'done' };
    });
  }

  const deliver = (text: string) => jobs.enqueue({ kind: 'deliver', payload: { text }, runAt: clock.now(), queue: 'room:1' }, clock.now());

  async function started(): Promise<number> {
    await worker.start();
    // The start's claim came back: a nudge sent while it is on its way would rightly bring a second claim.
    await expect.poll(() => jobs.answered).toBe(1);
    return jobs.claims;
  }

  it('stops at once when told to while a claim is on its way, instead of sleeping a poll first', async () => {
    registerDeliveries();
    await started();
    let answerClaim: () => void = () => undefined;
    jobs.holdNext = new Promise<void>((resolve) => (answerClaim = resolve));
    worker.nudge();
    await expect.poll(() => jobs.claims).toBe(2);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    answerClaim();
    // The poll is 10 minutes here: a loop that went to sleep after its claim would hold the stop that long.
    await expect.poll(() => stopped).toBe(true);
    await stopping;
  });

  it('does not claim again when a job ends with nothing behind it (the claim would come back empty)', async () => {
    registerDeliveries();
    const before = await started();
    await deliver('only');
    worker.nudge();
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 1 });
    await worker.stop();
    expect(jobs.claims - before).toBe(1);
  });

  it("runs a room's queued deliveries one after another at once, without waiting for the poll", async () => {
    registerDeliveries();
    await started();
    for (const text of ['first', 'second', 'third']) await deliver(text);
    worker.nudge();
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 3 });
    expect(ran).toEqual(['first', 'second', 'third']);
  });

  it('runs a delivery queued behind a running one of its room as soon as that one ends, whoever queued it', async () => {
    let release: () => void = () => undefined;
    registerDeliveries(new Promise<void>((resolve) => (release = resolve)));
    await started();
    await deliver('first');
    worker.nudge();
    await expect.poll(() => ran).toEqual(['first']);
    await deliver('second');
    worker.nudge();
    // Its claim skips 'second': 'first' of the same room is still running.
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ running: 1, pending: 1 });
    release();
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 2 });
    expect(ran).toEqual(['first', 'second']);
  });

  /** 'first' of room:1 runs in the loop, held until the returned release is called. */
  async function firstDeliveryHeld(): Promise<() => void> {
    let release: () => void = () => undefined;
    registerDeliveries(new Promise<void>((resolve) => (release = resolve)));
    await started();
    await deliver('first');
    worker.nudge('room:1');
    await expect.poll(() => ran).toEqual(['first']);
    return release;
  }

  it('claims nothing for a delivery its room is still busy with, and claims it when the busy one ends', async () => {
    const release = await firstDeliveryHeld();
    const claimsWhileBusy = jobs.claims;
    await deliver('second');
    worker.nudge('room:1');
    expect(jobs.claims).toBe(claimsWhileBusy);
    release();
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 2 });
    expect(ran).toEqual(['first', 'second']);
    expect(jobs.claims).toBe(claimsWhileBusy + 1);
  });

  it('claims no more for nudges of a room whose first delivery the claim on its way took (answers stored at once)', async () => {
    let release: () => void = () => undefined;
    registerDeliveries(new Promise<void>((resolve) => (release = resolve)));
    const before = await started();
    for (const text of ['first', 'second', 'third']) await deliver(text);
    let answerClaim: () => void = () => undefined;
    jobs.holdNext = new Promise<void>((resolve) => (answerClaim = resolve));
    worker.nudge('room:1');
    await expect.poll(() => jobs.claims).toBe(before + 1);
    // The other two answers are stored, and nudge, while the first is being claimed.
    worker.nudge('room:1');
    worker.nudge('room:1');
    answerClaim();
    await expect.poll(() => ran).toEqual(['first']);
    release();
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 3 });
    await worker.stop();
    // One claim a delivery: 'second' is claimed when 'first' ends, 'third' when 'second' does.
    expect(jobs.claims - before).toBe(3);
  });

  it("flushes a room's queue and stops after the delivery nothing waited behind", async () => {
    registerDeliveries();
    await deliver('pending');
    await worker.runQueue('room:1');
    expect(ran).toEqual(['pending']);
    expect(jobs.claims).toBe(1);
  });

  it('waits, when asked, for the run of a queue the loop claimed first, then runs what is due behind it', async () => {
    const release = await firstDeliveryHeld();
    await deliver('second');
    // Without waiting, the queue is busy: the claim comes back empty and the caller goes on at once.
    await worker.runQueue('room:1');
    expect(ran).toEqual(['first']);
    let flushed = false;
    const flush = worker.runQueue('room:1', { awaitRunning: true }).then(() => (flushed = true));
    await Promise.resolve();
    expect(flushed).toBe(false);
    release();
    await flush;
    expect(ran).toEqual(['first', 'second']);
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 2 });
  });

  it.each([
    ['postpones', { status: 'postpone', afterMs: 300 }],
    ['retries', { status: 'retry', error: 'HTTP 429', afterMs: 300 }],
  ] as const)('wakes when a job it %s falls due, without waiting for the poll', async (_name, outcome) => {
    worker.register('deliver', async (job) => {
      ran.push(String(job.payload.text));
      return ran.length === 1 ? outcome : { status: 'done' };
    });
    await started();
    await deliver('waits');
    worker.nudge();
    await expect.poll(() => ran).toEqual(['waits']);
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ pending: 1 });
    // Not due yet: the worker looks again and finds nothing.
    const claims = jobs.claims;
    await expect.poll(() => jobs.claims).toBeGreaterThan(claims);
    expect(ran).toEqual(['waits']);
    await clock.advance(300);
    await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 1 });
    expect(ran).toEqual(['waits', 'waits']);
  });
});
