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
      heartbeat: async () => ({ alive: true, stoppedSince: [] }),
      stopInstance: async () => undefined,
      liveInstances: async () => [],
      reclaimAbandoned: async () => {
        calls.push('reclaim');
        return { jobs: 0, traces: 0, declared: [] };
      },
    };
    const keeper = new WorkerInstanceKeeper({ id: 'worker-1', jobs, clock: new ManualClock(), logger: quietLogger(), host: 'box-1', pid: 1 });
    await expect(keeper.maintain()).rejects.toThrow('the database restarted');
    await keeper.maintain();
    await keeper.maintain();
    // Registered and reclaimed once it worked, and not again on later polls.
    expect(calls).toEqual(['register', 'register', 'reclaim']);
  });

  it('after a database outage, beats at the first poll that reaches it, and judges no heartbeat stale for two beats', async () => {
    // Every heartbeat is stale when the database comes back: an instance that judged them at once would declare the
    // live ones gone, and their running jobs would run twice (seen in a chaos day with outages).
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    const beats: number[] = [];
    const staleCutoffs: number[] = [];
    let away = false;
    const jobs: WorkerInstanceOptions['jobs'] = {
      registerInstance: async () => undefined,
      heartbeat: async (_id, now) => {
        if (away) throw new Error('connect ECONNREFUSED');
        beats.push(now.getTime());
        return { alive: true, stoppedSince: [] };
      },
      stopInstance: async () => undefined,
      liveInstances: async () => [],
      reclaimAbandoned: async (_self, _now, staleBefore) => {
        staleCutoffs.push(staleBefore.getTime());
        return { jobs: 0, traces: 0, declared: [] };
      },
    };
    const keeper = new WorkerInstanceKeeper({ id: 'worker-1', jobs, clock, logger: quietLogger(), host: 'box-1', pid: 1 });
    await keeper.maintain();
    await clock.advance(20_000);
    await keeper.maintain();
    expect(staleCutoffs.at(-1)).toBe(clock.now().getTime() - 20_000);
    away = true;
    await clock.advance(5_000);
    await expect(keeper.maintain()).rejects.toThrow('ECONNREFUSED');
    away = false;
    await clock.advance(1_000);
    await keeper.maintain();
    // Beaten at the first poll after the outage, not a whole interval after the failed one.
    expect(beats.at(-1)).toBe(clock.now().getTime());
    expect(staleCutoffs.at(-1)).toBe(0);
    await clock.advance(10_000);
    await keeper.maintain();
    expect(staleCutoffs.at(-1)).toBe(clock.now().getTime() - 20_000);
  });

  it('tells when it declared others gone after its start, not at its start (a start reads back what they left anyway)', async () => {
    let declared = ['worker-0'];
    const { keeper, clock, told } = tellingKeeper({ reclaimAbandoned: async () => ({ jobs: 0, traces: 0, declared }) });
    await keeper.maintain();
    expect(told()).toBe(0);
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
    declared = [];
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
  });

  it('tells once of another process that stopped cleanly, heard from its own heartbeat since the last one reached', async () => {
    // A process stopped in a rolling restart may leave a message it claimed and never handled (its claim's answer
    // lost): before, only a process declared gone was told of, and the message waited for the next start.
    const asked: number[] = [];
    let stopped: string[] = [];
    const { keeper, clock, told } = tellingKeeper({
      heartbeat: async (_id, _now, since) => {
        asked.push(since.getTime());
        return { alive: true, stoppedSince: stopped };
      },
    });
    const registeredAt = clock.now().getTime();
    await keeper.maintain();
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(0);
    // Asked from a minute before the registration: stop times come from other processes' clocks.
    expect(asked).toEqual([registeredAt - 60_000]);
    stopped = ['worker-2'];
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
    expect(asked.at(-1)).toBe(registeredAt + 5_000 - 60_000);
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
    stopped = ['worker-2', 'worker-3'];
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(2);
  });

  it('does not tell again of a process it declared gone itself, which its next heartbeat names as stopped', async () => {
    let declared: string[] = [];
    let stopped: string[] = [];
    const { keeper, clock, told } = tellingKeeper({
      heartbeat: async () => ({ alive: true, stoppedSince: stopped }),
      reclaimAbandoned: async () => ({ jobs: 0, traces: 0, declared }),
    });
    await keeper.maintain();
    declared = ['worker-2'];
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
    declared = [];
    stopped = ['worker-2'];
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
  });

  it('tells when it was declared gone itself and registered again: others may have stopped meanwhile, unnamed by that beat', async () => {
    let alive = true;
    const { keeper, clock, told } = tellingKeeper({ heartbeat: async () => ({ alive, stoppedSince: [] }) });
    await keeper.maintain();
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(0);
    alive = false;
    await clock.advance(5_000);
    await keeper.maintain();
    expect(told()).toBe(1);
  });
});

/** A keeper on a manual clock whose repository answers as `overrides` say (else: nothing stopped, nobody declared), counting what it tells. */
function tellingKeeper(overrides: Partial<WorkerInstanceOptions['jobs']>) {
  const clock = new ManualClock('2026-12-07T09:00:00Z');
  const jobs: WorkerInstanceOptions['jobs'] = {
    registerInstance: async () => undefined,
    heartbeat: async () => ({ alive: true, stoppedSince: [] }),
    stopInstance: async () => undefined,
    liveInstances: async () => [],
    reclaimAbandoned: async () => ({ jobs: 0, traces: 0, declared: [] }),
    ...overrides,
  };
  let told = 0;
  const keeper = new WorkerInstanceKeeper({ id: 'worker-1', jobs, clock, logger: quietLogger(), host: 'box-1', pid: 1, onOthersGone: () => (told += 1) });
  return { keeper, clock, told: () => told };
}
