import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { WorkerInstanceKeeper, type WorkerInstanceOptions } from '../../../../src/services/jobs/worker-instance.ts';
import { quietLogger } from '../../../support/service-doubles.ts';

describe("a job worker's instance", () => {
  it('tries its registration again at the next poll when it failed, instead of failing every poll for good', async () => {
    const calls: string[] = [];
    let failures = 1;
    const jobs: WorkerInstanceOptions['jobs'] = {
      registerInstance: async () => {
        calls.push('register');
        if (failures-- > 0) throw new Error('the database restarted');
      },
      heartbeat: async () => true,
      stopInstance: async () => undefined,
      liveInstances: async () => [],
      reclaimAbandoned: async () => {
        calls.push('reclaim');
        return { jobs: 0, traces: 0 };
      },
    };
    const keeper = new WorkerInstanceKeeper({ id: 'worker-1', jobs, clock: new ManualClock(), logger: quietLogger(), host: 'box-1', pid: 1 });
    await expect(keeper.maintain()).rejects.toThrow('the database restarted');
    await keeper.maintain();
    await keeper.maintain();
    // Registered and reclaimed once it worked, and not again on later polls.
    expect(calls).toEqual(['register', 'register', 'reclaim']);
  });
});
