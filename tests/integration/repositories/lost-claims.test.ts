/**
 * A claim whose answer a dropped database connection lost: the server committed it (the job leased to this worker,
 * its run begun) but the reply never came. Seen in a Postgres restart under a live room: a delivery's end claimed the
 * room's next delivery, lost the reply, and every later answer waited out the five-minute lease half-written. The
 * worker puts back what it holds but does not know of, and the job runs at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError, isDatabaseUnreachable } from '../../../src/core/database-unreachable.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { JobsRepository, type ClaimedJob } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { storeSession } from '../../support/service-doubles.ts';

const logger = createLogger({ level: 'silent', secrets: [] });
const ROOM = 'room:local:r1';
const dropped = () => new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });

/** The real repository, whose next claim that takes a job commits and then loses its answer. */
class LosingJobs extends JobsRepository {
  loseNextClaim = false;

  override async claimDue(...args: Parameters<JobsRepository['claimDue']>): Promise<ClaimedJob[]> {
    const claimed = await super.claimDue(...args);
    if (claimed.length > 0 && this.loseNextClaim) {
      this.loseNextClaim = false;
      throw dropped();
    }
    return claimed;
  }
}

/** The real repository, whose next delivery end commits (claiming the room's next delivery) and loses its answer. */
class LosingMessages extends MessagesRepository {
  loseNextEnd = false;

  override async markDelivered(...args: Parameters<MessagesRepository['markDelivered']>): Promise<ClaimedJob | null> {
    const next = await super.markDelivered(...args);
    if (this.loseNextEnd) {
      this.loseNextEnd = false;
      throw dropped();
    }
    return next;
  }
}

describe.each(ENGINES)('a claim whose answer was lost on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: LosingJobs;
  let messages: LosingMessages;
  // Never advanced: a job left to its lease would never run again.
  let clock: ManualClock;
  let worker: JobWorker;
  let ran: string[];
  /** Lets a job held back by a test end (its worker's stop waits for it). */
  let release: () => void;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new LosingJobs(handle.db);
    messages = new LosingMessages(handle.db);
    clock = new ManualClock();
    ran = [];
    release = () => undefined;
    await storeSession(new SessionsRepository(handle.db), clock);
    worker = new JobWorker({ workerId: 'worker-1', jobs, clock, logger, pollMs: 20, leaseMs: 60_000 });
    worker.register('deliver', async (job, _signal, claim) => {
      const message = await messages.findById(Number(job.payload.messageId));
      ran.push(message?.text ?? '?');
      const end = () => messages.markDelivered(Number(job.payload.messageId), job, clock.now(), { externalIds: [`ext-${job.id}`], url: null }, claim ?? null);
      // As the delivery service does: the delivery is out, so its record is written once the database answers.
      const next = await end().catch((error: unknown) => (isDatabaseUnreachable(error) ? end() : Promise.reject(error)));
      return next ? { status: 'settled', next } : { status: 'settled' };
    });
  });
  afterEach(async () => {
    release();
    await worker.stop();
    await handle.close();
  });

  /** Stores an answer and queues its delivery, as DeliveryService.post does. */
  async function answer(text: string): Promise<void> {
    await messages.insertWithEffects(
      { sessionId: 's1', speaker: { kind: 'participant', name: 'Claude' }, role: 'assistant', text, deliveryStatus: 'pending' },
      { usage: { messages: 1, tokens: 0, costUsd: 0 }, delivery: { kind: 'deliver', queue: ROOM, payload: {}, runAt: clock.now(), maxRetries: 12 } },
      clock.now(),
    );
  }

  const runs = () => handle.db.selectFrom('job_runs').select(['job_id', 'outcome', 'error']).orderBy('id').execute();

  it('runs a job whose claim committed and lost its answer at once, not when its lease ends', async () => {
    jobs.loseNextClaim = true;
    await answer('first');
    await worker.start();
    await expect.poll(() => jobs.countByStatus('deliver'), { timeout: 10_000 }).toEqual({ done: 1 });
    expect(ran).toEqual(['first']);
    expect((await runs()).map((run) => run.outcome)).toEqual(['abandoned', 'succeeded']);
  });

  it("goes on with a room's deliveries when a delivery's end claimed the next one and lost its answer", async () => {
    await worker.start();
    messages.loseNextEnd = true;
    for (const text of ['first', 'second', 'third']) await answer(text);
    worker.nudge(ROOM);
    await expect.poll(() => jobs.countByStatus('deliver'), { timeout: 10_000 }).toEqual({ done: 3 });
    expect(ran).toEqual(['first', 'second', 'third']);
    const lost = (await runs()).filter((run) => run.outcome === 'abandoned');
    expect(lost).toHaveLength(1);
    expect(lost[0]?.error).toContain('lost');
  });

  it('puts back only the job the lost claim took: not one it runs, nor one another worker holds', async () => {
    const slow = new Promise<void>((resolve) => (release = resolve));
    worker.register('wrap_up', async (job) => {
      ran.push(String(job.payload.name));
      if (job.payload.name === 'running here') await slow;
      return { status: 'done' };
    });
    const enqueue = (name: string) => jobs.enqueue({ kind: 'wrap_up', payload: { name }, runAt: clock.now() }, clock.now());
    await enqueue('held elsewhere');
    expect(await jobs.claimDue('worker-2', clock.now(), 60_000, 1, ['wrap_up'])).toHaveLength(1);
    await enqueue('running here');
    await worker.start();
    await expect.poll(() => ran).toEqual(['running here']);
    jobs.loseNextClaim = true;
    await enqueue('lost');
    worker.nudge();
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['running here', 'lost']);
    release();
    await expect.poll(() => jobs.countByStatus('wrap_up')).toEqual({ done: 2, running: 1 });
    const held = await handle.db.selectFrom('jobs').select(['locked_by', 'status']).where('status', '=', 'running').execute();
    expect(held).toEqual([{ locked_by: 'worker-2', status: 'running' }]);
    expect((await runs()).filter((run) => run.outcome === 'abandoned')).toHaveLength(1);
  });
});
