import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00Z');
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe.each(ENGINES)('debounced jobs and the session clock on %s', (engine) => {
  let handle: DatabaseHandle;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
  });
  afterEach(async () => handle.close());

  it('moves a pending job later with each trigger, but never beyond its bound after it was queued', async () => {
    const jobs = new JobsRepository(handle.db);
    await jobs.enqueue({ kind: 'scribe', dedupeKey: 's1', payload: {}, runAt: later(60) }, start);
    await jobs.debounce('scribe', 's1', later(100), 180_000, later(40));
    expect(await jobs.claimDue('w1', later(99), 60_000, 10)).toEqual([]);
    await jobs.debounce('scribe', 's1', later(400), 180_000, later(340));
    expect(await jobs.claimDue('w1', later(179), 60_000, 10)).toEqual([]);
    expect(await jobs.claimDue('w1', later(180), 60_000, 10)).toHaveLength(1);
  });

  it('enqueues or debounces in one statement: a first trigger queues, later ones move it within the same bound', async () => {
    const jobs = new JobsRepository(handle.db);
    const trigger = (runAt: Date, now: Date) => jobs.enqueueOrDebounce({ kind: 'scribe', dedupeKey: 's1', payload: {}, runAt }, 180_000, now);
    expect(await trigger(later(60), start)).toEqual(later(60));
    expect(await trigger(later(100), later(40))).toEqual(later(100));
    expect(await jobs.claimDue('w1', later(99), 60_000, 10)).toEqual([]);
    // It answers when the job is due, the bound included.
    expect(await trigger(later(400), later(340))).toEqual(later(180));
    expect(await jobs.claimDue('w1', later(179), 60_000, 10)).toEqual([]);
    const claimed = await jobs.claimDue('w1', later(180), 60_000, 10);
    expect(claimed).toHaveLength(1);
    await jobs.complete(claimed[0]!, later(181));
    // Once it ran, the next trigger queues a new one.
    await trigger(later(250), later(190));
    expect(await jobs.claimDue('w1', later(250), 60_000, 10)).toHaveLength(1);
  });

  it('stores the clock start and the pause of a session', async () => {
    const sessions = new SessionsRepository(handle.db);
    await sessions.create(
      {
        id: 'c1',
        parentId: null,
        transport: 't',
        roomId: 'r',
        roomUrl: null,
        originChannelId: null,
        originMessageId: null,
        topic: 'x',
        status: 'active',
        createdBy: { id: 'u', name: 'U' },
      },
      start,
    );
    const updated = await sessions.update('c1', { clockStartedAt: later(5), pausedAt: later(65) }, later(65));
    expect(updated?.clockStartedAt?.toISOString()).toBe(later(5).toISOString());
    expect(updated?.pausedAt?.toISOString()).toBe(later(65).toISOString());
  });
});
