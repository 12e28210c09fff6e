import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { DatabaseUnreachableError } from '../../../../src/core/database-unreachable.ts';
import { createLogger } from '../../../../src/logging/logger.ts';
import { settleWithClock } from '../../../support/settle-with-clock.ts';
import type { ClaimedJob } from '../../../../src/repositories/job-claims.ts';
import { settleJobWhenReachable, type JobSettlementDependencies } from '../../../../src/services/jobs/job-settlement.ts';

const job: ClaimedJob = {
  id: 7,
  kind: 'deliver_message',
  payload: {},
  sessionId: 's-1',
  retryCount: 0,
  maxRetries: 5,
  retryUntil: null,
  runId: 1,
  queue: null,
  hasSuccessor: false,
  firstRun: true,
};

/** Jobs whose writes fail as an unreachable server `outageWrites` times, then record; or fail with `otherError`. */
function dependencies(clock: ManualClock, outageWrites: number, otherError?: Error): { deps: JobSettlementDependencies; completed: number[] } {
  const completed: number[] = [];
  let failures = 0;
  const write = async (claimed: ClaimedJob) => {
    if (otherError) throw otherError;
    if (failures < outageWrites) {
      failures += 1;
      throw new DatabaseUnreachableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    }
    completed.push(claimed.id);
  };
  return {
    completed,
    deps: {
      jobs: { complete: write, postpone: async () => undefined, fail: async () => false },
      clock,
      logger: createLogger({ level: 'silent', secrets: [] }),
      expect: () => undefined,
    },
  };
}

describe('settleJobWhenReachable', () => {
  it('records the outcome once the database answers again, trying again on the clock meanwhile', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const { deps, completed } = dependencies(clock, 2);
    const started = clock.now().getTime();
    await settleWithClock(settleJobWhenReachable(deps, job, { status: 'done' }, new AbortController().signal), clock);
    expect(completed).toEqual([7]);
    // One second after the first failure, two after the second.
    expect(clock.now().getTime() - started).toBe(3000);
  });

  it('gives up on a stop, and at once on any other failure', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const stop = new AbortController();
    const settled = settleJobWhenReachable(dependencies(clock, 100).deps, job, { status: 'done' }, stop.signal);
    while (clock.pendingSleepers === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    stop.abort();
    await expect(settled).rejects.toBeInstanceOf(DatabaseUnreachableError);
    const refused = new Error('duplicate key value violates unique constraint');
    await expect(settleJobWhenReachable(dependencies(clock, 0, refused).deps, job, { status: 'done' }, new AbortController().signal)).rejects.toBe(refused);
  });
});
