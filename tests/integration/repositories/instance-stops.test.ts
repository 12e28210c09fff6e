/**
 * A process that stops cleanly may leave a message it claimed and never handled (its claim's answer lost just before
 * the stop): the processes left hear of the stop from their own heartbeat, in the same statement, and take it over.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe.each(ENGINES)('a heartbeat names the other processes stopped since it asks, on %s', (engine) => {
  let handle: DatabaseHandle;
  let jobs: JobsRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    jobs = new JobsRepository(handle.db);
    for (const id of ['wrk-self', 'wrk-first', 'wrk-second']) await jobs.registerInstance({ id, host: 'h', pid: 1 }, start);
  });
  afterEach(async () => handle.close());

  it('names none while the others run, then each one stopped or declared gone at or after the time asked', async () => {
    expect(await jobs.heartbeat('wrk-self', at(5), start)).toEqual({ alive: true, stoppedSince: [] });
    await jobs.stopInstance('wrk-first', at(6));
    await jobs.reclaimAbandoned('wrk-other', at(7), start, ['wrk-second']);
    const answer = await jobs.heartbeat('wrk-self', at(10), at(5));
    expect(answer.alive).toBe(true);
    expect([...answer.stoppedSince].sort()).toEqual(['wrk-first', 'wrk-second']);
    expect(await jobs.heartbeat('wrk-self', at(15), at(7))).toEqual({ alive: true, stoppedSince: ['wrk-second'] });
    expect(await jobs.heartbeat('wrk-self', at(20), at(8))).toEqual({ alive: true, stoppedSince: [] });
  });

  it('is not alive, and names nobody, once this process was declared gone itself', async () => {
    await jobs.stopInstance('wrk-first', at(6));
    await jobs.reclaimAbandoned('wrk-other', at(7), start, ['wrk-self']);
    expect(await jobs.heartbeat('wrk-self', at(10), start)).toEqual({ alive: false, stoppedSince: [] });
  });
});
