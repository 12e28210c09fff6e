/**
 * A stored run taken by a caller that never heard so (the database's answer was lost) is taken again by that caller
 * alone: the run as its take left it, on both engines (the take's time is compared as written, to the millisecond).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { RunStatesRepository } from '../../../src/repositories/run-states-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { storeSession } from '../../support/service-doubles.ts';
import { ManualClock } from '../../../src/core/clock.ts';

const now = new Date('2026-03-01T10:00:00.123Z');

describe.each(ENGINES)('taking a stored run again, on %s', (engine) => {
  let handle: DatabaseHandle;
  let runs: RunStatesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    runs = new RunStatesRepository(handle.db);
    await storeSession(new SessionsRepository(handle.db), new ManualClock(now), { status: 'awaiting_approval' });
  });
  afterEach(async () => handle.close());

  it('lets the caller that took it at that time take it again, and nobody else, once', async () => {
    const id = await runs.save('s1', 'planner_approval', '{}', now);
    const takenAt = new Date(now.getTime() + 1_001);
    expect(await runs.resolve(id, 'resumed', takenAt)).toBe(true);
    expect(await runs.retake(id, new Date(takenAt.getTime() + 1), takenAt)).toBe(false);
    const retakenAt = new Date(takenAt.getTime() + 5_000);
    expect(await runs.retake(id, takenAt, retakenAt)).toBe(true);
    expect(await runs.retake(id, takenAt, retakenAt)).toBe(false);
    expect(await runs.findWaiting('s1', 'planner_approval')).toBeNull();
  });
});
