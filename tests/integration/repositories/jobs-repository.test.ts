import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00Z');
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe.each(ENGINES)('JobsRepository on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
  });
  afterEach(async () => handle.close());

  it('deduplicates a pending job by kind and key, and allows a new one once it ran', async () => {
    const first = await jobs.enqueue({ kind: 'scribe', dedupeKey: 's1', payload: {}, runAt: start }, start);
    const second = await jobs.enqueue({ kind: 'scribe', dedupeKey: 's1', payload: {}, runAt: start }, start);
    expect(first).toBeTypeOf('number');
    expect(second).toBeNull();
    const [claimed] = await jobs.claimDue('w1', start, 60_000, 10);
    await jobs.complete(claimed!, start);
    expect(await jobs.enqueue({ kind: 'scribe', dedupeKey: 's1', payload: {}, runAt: start }, start)).toBeTypeOf('number');
  });

  it('enqueueOnce answers when the pending job is due: its own, the one already pending, a new one once that ran', async () => {
    expect((await jobs.enqueueOnce({ kind: 'ledger', dedupeKey: 's1', payload: {}, runAt: later(60) }, start))?.toISOString()).toBe(later(60).toISOString());
    expect((await jobs.enqueueOnce({ kind: 'ledger', dedupeKey: 's1', payload: {}, runAt: later(90) }, later(30)))?.toISOString()).toBe(
      later(60).toISOString(),
    );
    // Another key or kind is a job of its own.
    expect((await jobs.enqueueOnce({ kind: 'ledger', dedupeKey: 's2', payload: {}, runAt: later(70) }, start))?.toISOString()).toBe(later(70).toISOString());
    const [claimed] = await jobs.claimDue('w1', later(61), 60_000, 1, ['ledger']);
    expect(claimed?.payload).toEqual({});
    await jobs.complete(claimed!, later(61));
    expect((await jobs.enqueueOnce({ kind: 'ledger', dedupeKey: 's1', payload: {}, runAt: later(122) }, later(62)))?.toISOString()).toBe(
      later(122).toISOString(),
    );
  });

  it('claims only due jobs, and a claimed job is not claimed again while leased', async () => {
    await jobs.enqueue({ kind: 'a', payload: { n: 1 }, runAt: start }, start);
    await jobs.enqueue({ kind: 'a', payload: { n: 2 }, runAt: later(30) }, start);
    const firstClaim = await jobs.claimDue('w1', start, 60_000, 10);
    expect(firstClaim.map((job) => job.payload)).toEqual([{ n: 1 }]);
    expect(await jobs.claimDue('w2', later(10), 60_000, 10)).toEqual([]);
    const secondClaim = await jobs.claimDue('w2', later(31), 60_000, 10);
    expect(secondClaim.map((job) => job.payload)).toEqual([{ n: 2 }]);
  });

  it('recovers a job whose worker died once its lease expires', async () => {
    await jobs.enqueue({ kind: 'a', payload: {}, runAt: start }, start);
    const [abandoned] = await jobs.claimDue('dead-worker', start, 60_000, 10);
    expect(await jobs.claimDue('w2', later(59), 60_000, 10)).toEqual([]);
    const [recovered] = await jobs.claimDue('w2', later(61), 60_000, 10);
    expect(recovered?.id).toBe(abandoned?.id);
    // The dead worker may have done part of it: the second run is not a first run, though no retry was counted.
    expect([abandoned?.firstRun, recovered?.firstRun, recovered?.retryCount]).toEqual([true, false, 0]);
  });

  it("tells a job's first run from a retry after a failure", async () => {
    await jobs.enqueue({ kind: 'a', payload: {}, runAt: start }, start);
    const [first] = await jobs.claimDue('w1', start, 60_000, 10);
    await jobs.fail(first!, 'transient', later(5), start);
    const [retry] = await jobs.claimDue('w1', later(5), 60_000, 10);
    expect([first?.firstRun, retry?.id === first?.id, retry?.firstRun]).toEqual([true, true, false]);
  });

  it('keeps order inside a queue: a later job waits until the earlier one is finished', async () => {
    await jobs.enqueue({ kind: 'deliver', queue: 'room-1', payload: { n: 1 }, runAt: start }, start);
    await jobs.enqueue({ kind: 'deliver', queue: 'room-1', payload: { n: 2 }, runAt: start }, start);
    await jobs.enqueue({ kind: 'deliver', queue: 'room-2', payload: { n: 3 }, runAt: start }, start);
    const claimed = await jobs.claimDue('w1', start, 60_000, 10);
    expect(claimed.map((job) => job.payload)).toEqual([{ n: 1 }, { n: 3 }]);
    await jobs.fail(claimed[0]!, 'boom', later(5), start);
    expect(await jobs.claimDue('w1', later(1), 60_000, 10)).toEqual([]);
    const retried = await jobs.claimDue('w1', later(5), 60_000, 10);
    expect(retried.map((job) => job.payload)).toEqual([{ n: 1 }]);
    await jobs.complete(retried[0]!, later(5));
    expect((await jobs.claimDue('w1', later(5), 60_000, 10)).map((job) => job.payload)).toEqual([{ n: 2 }]);
  });

  it('fails a job for good after max retries and reports it as terminal', async () => {
    await jobs.enqueue({ kind: 'a', payload: {}, runAt: start, maxRetries: 2 }, start);
    const [firstTry] = await jobs.claimDue('w1', start, 60_000, 10);
    expect(await jobs.fail(firstTry!, 'e1', later(1), start)).toBe(false);
    const [secondTry] = await jobs.claimDue('w1', later(1), 60_000, 10);
    expect(secondTry?.retryCount).toBe(1);
    expect(await jobs.fail(secondTry!, 'e2', later(3), later(1))).toBe(true);
    expect(await jobs.claimDue('w1', later(100), 60_000, 10)).toEqual([]);
    expect(await jobs.countByStatus()).toEqual({ failed: 1 });
  });

  it('never hands one job to two concurrent claimers', async () => {
    for (let n = 0; n < 20; n += 1) await jobs.enqueue({ kind: 'a', payload: { n }, runAt: start }, start);
    const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((worker) => jobs.claimDue(worker, start, 60_000, 8)));
    const ids = claims.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(20);
  });
});
