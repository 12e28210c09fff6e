import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { JobsRepository, type ClaimedJob, type SuccessorClaim } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { JobWorker } from '../../../src/services/jobs/job-worker.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { storeSession } from '../../support/service-doubles.ts';

const logger = createLogger({ level: 'silent', secrets: [] });
const ROOM = 'room:local:r1';

/** The real repository, counting the claims the worker sends on its own (successor claims are not among them). */
class CountingJobs extends JobsRepository {
  claims = 0;

  override async claimDue(...args: Parameters<JobsRepository['claimDue']>): Promise<ClaimedJob[]> {
    this.claims += 1;
    return super.claimDue(...args);
  }
}

describe.each(ENGINES)("a delivery's end claims the next of its room on %s", (engine) => {
  let handle: DatabaseHandle;
  let jobs: CountingJobs;
  let messages: MessagesRepository;
  let clock: ManualClock;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new CountingJobs(handle.db);
    messages = new MessagesRepository(handle.db);
    clock = new ManualClock();
    await storeSession(new SessionsRepository(handle.db), clock);
  });
  afterEach(async () => handle.close());

  /** Stores an answer and queues its delivery, as DeliveryService.post does. */
  async function answer(text: string, runAt = clock.now(), queue = ROOM): Promise<number> {
    const { message } = await messages.insertWithEffects(
      { sessionId: 's1', speaker: { kind: 'participant', name: 'Claude' }, role: 'assistant', text, deliveryStatus: 'pending' },
      { usage: { messages: 1, tokens: 0, costUsd: 0 }, delivery: { kind: 'deliver', queue, payload: {}, runAt, maxRetries: 12 } },
      clock.now(),
    );
    return message.id;
  }

  const successor = (kinds = ['deliver'], claiming = true): SuccessorClaim & { sent: number } => ({
    workerId: 'worker-1',
    leaseMs: 60_000,
    kinds,
    sent: 0,
    sending() {
      this.sent += 1;
      return claiming;
    },
  });

  async function claimFirst(): Promise<ClaimedJob> {
    const [job] = await jobs.claimDue('worker-1', clock.now(), 60_000, 1, ['deliver'], ROOM);
    if (!job) throw new Error('nothing to claim');
    return job;
  }

  const delivered = { externalIds: ['ext-1'], url: null };

  it('marks the delivery done and claims the next delivery of its room in the same statement', async () => {
    const first = await answer('first');
    const second = await answer('second');
    await answer('third');
    const job = await claimFirst();
    const claim = successor();
    const next = await messages.markDelivered(first, job, clock.now(), delivered, claim);
    expect(claim.sent).toBe(1);
    expect(next).toMatchObject({ kind: 'deliver', queue: ROOM, payload: { messageId: second }, firstRun: true, hasSuccessor: true, retryCount: 0 });
    const rows = await handle.db.selectFrom('jobs').select(['id', 'status', 'locked_by']).orderBy('id').execute();
    expect(rows.map((row) => [row.status, row.locked_by])).toEqual([
      ['done', 'worker-1'],
      ['running', 'worker-1'],
      ['pending', null],
    ]);
    const runs = await handle.db.selectFrom('job_runs').select(['id', 'job_id', 'outcome', 'attempt', 'worker_id']).orderBy('id').execute();
    expect(runs).toEqual([
      { id: job.runId, job_id: job.id, outcome: 'succeeded', attempt: 1, worker_id: 'worker-1' },
      { id: next?.runId, job_id: next?.id, outcome: null, attempt: 1, worker_id: 'worker-1' },
    ]);
    expect((await messages.findById(first))?.deliveryStatus).toBe('delivered');
  });

  it('claims nothing when the next delivery is not due, or is of a kind the worker does not run', async () => {
    const first = await answer('first');
    await answer('later', new Date(clock.now().getTime() + 5_000));
    expect(await messages.markDelivered(first, await claimFirst(), clock.now(), delivered, successor())).toBeNull();
    clock.advance(5_000);
    const later = await claimFirst();
    await answer('second');
    expect(await messages.markDelivered(Number(later.payload.messageId), later, clock.now(), delivered, successor(['other']))).toBeNull();
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 2, pending: 1 });
    // No kinds at all: the same prepared statement, and it claims nothing.
    await answer('third');
    const second = await claimFirst();
    expect(await messages.markDelivered(Number(second.payload.messageId), second, clock.now(), delivered, successor([]))).toBeNull();
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 3, pending: 1 });
  });

  it('never claims the job it finishes, even when that job outlived its lease', async () => {
    const first = await answer('first');
    const job = await claimFirst();
    clock.advance(120_000);
    const second = await answer('second');
    const next = await messages.markDelivered(first, job, clock.now(), delivered, successor());
    expect(next).toMatchObject({ payload: { messageId: second }, hasSuccessor: false });
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 1, running: 1 });
  });

  it('marks the delivery done alone, claiming nothing, without a successor claim or when its worker is stopping', async () => {
    const first = await answer('first');
    const second = await answer('second');
    await answer('third');
    expect(await messages.markDelivered(first, await claimFirst(), clock.now(), delivered)).toBeNull();
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 1, pending: 2 });
    const stopping = successor(['deliver'], false);
    expect(await messages.markDelivered(second, await claimFirst(), clock.now(), delivered, stopping)).toBeNull();
    expect(stopping.sent).toBe(1);
    expect(await jobs.countByStatus('deliver')).toEqual({ done: 2, pending: 1 });
  });

  describe('run by the job worker', () => {
    let worker: JobWorker;
    let ran: string[];
    let gates: Map<string, Promise<void>>;

    function startWorker(concurrency = 8): void {
      // The poll never fires within a test: only nudges and the ends of jobs make the worker claim.
      worker = new JobWorker({ workerId: 'worker-1', jobs, clock, logger, pollMs: 600_000, concurrency });
      worker.register('deliver', async (job, _signal, claim) => {
        const message = await messages.findById(Number(job.payload.messageId));
        ran.push(message?.text ?? '?');
        await gates.get(message?.text ?? '');
        const next = await messages.markDelivered(Number(job.payload.messageId), job, clock.now(), delivered, claim ?? null);
        return next ? { status: 'settled', next } : { status: 'settled' };
      });
    }

    beforeEach(() => {
      ran = [];
      gates = new Map();
      startWorker();
    });
    afterEach(async () => worker.stop());

    async function started(): Promise<number> {
      await worker.start();
      await expect.poll(() => jobs.claims).toBe(1);
      return jobs.claims;
    }

    it("runs a room's deliveries one after another on one claim: each end claims the next", async () => {
      const before = await started();
      for (const text of ['first', 'second', 'third']) await answer(text);
      worker.nudge(ROOM);
      await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 3 });
      await worker.stop();
      expect(ran).toEqual(['first', 'second', 'third']);
      expect(jobs.claims - before).toBe(1);
    });

    it('takes a delivery queued while its room was busy with the end of the busy one, nudge held back', async () => {
      let release: () => void = () => undefined;
      gates.set('first', new Promise<void>((resolve) => (release = resolve)));
      const before = await started();
      await answer('first');
      worker.nudge(ROOM);
      await expect.poll(() => ran).toEqual(['first']);
      await answer('second');
      worker.nudge(ROOM);
      release();
      await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 2 });
      await worker.stop();
      expect(ran).toEqual(['first', 'second']);
      expect(jobs.claims - before).toBe(1);
    });

    it('lets a stop wait for a delivery its last job claimed, and claims no more once stopping', async () => {
      let release: () => void = () => undefined;
      gates.set('second', new Promise<void>((resolve) => (release = resolve)));
      await started();
      for (const text of ['first', 'second', 'third']) await answer(text);
      worker.nudge(ROOM);
      await expect.poll(() => ran).toEqual(['first', 'second']);
      let stopped = false;
      const stopping = worker.stop().then(() => (stopped = true));
      await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 1, running: 1, pending: 1 });
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(await jobs.countByStatus('deliver')).toEqual({ done: 2, pending: 1 });
      expect(ran).toEqual(['first', 'second']);
    });

    it('claims no successor while the worker is full: the poll shares the slots among the rooms, oldest first', async () => {
      await worker.stop();
      startWorker(1);
      await answer('room A first');
      await answer('room B only', clock.now(), 'room:local:r2');
      await answer('room A second');
      // Not `started()`: with three deliveries due and one slot, the first claim is followed at once by the next.
      await worker.start();
      await expect.poll(() => jobs.countByStatus('deliver')).toEqual({ done: 3 });
      expect(ran).toEqual(['room A first', 'room B only', 'room A second']);
    });

    it("follows the chain when a room's queue is flushed", async () => {
      for (const text of ['first', 'second', 'third']) await answer(text);
      await worker.runQueue(ROOM);
      expect(ran).toEqual(['first', 'second', 'third']);
      expect(await jobs.countByStatus('deliver')).toEqual({ done: 3 });
      expect(jobs.claims).toBe(1);
    });
  });
});
