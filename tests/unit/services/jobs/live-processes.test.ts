/** The live processes that share Notion's budget: fresh heartbeats only, read in the background, at least this one. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { LiveProcesses } from '../../../../src/services/jobs/live-processes.ts';

const START = new Date('2026-03-01T10:00:00Z');
const at = (secondsAgo: number) => new Date(START.getTime() - secondsAgo * 1000);
const instance = (id: string, heartbeatAt: Date) => ({ id, host: 'host', pid: 1, heartbeatAt });

describe('the live processes', () => {
  it('counts the instances whose heartbeat is fresh, refreshed each heartbeat interval, at least one', async () => {
    const clock = new ManualClock(START);
    let live = [instance('a', at(1)), instance('b', at(4)), instance('gone', at(25))];
    const count = new LiveProcesses({ clock, jobs: { liveInstances: async () => live } });
    expect(count.count()).toBe(1);
    await count.settled();
    expect(count.count()).toBe(2);
    live = [];
    await clock.advance(4_999);
    expect(count.count()).toBe(2);
    await count.settled();
    expect(count.count()).toBe(2);
    await clock.advance(1);
    count.count();
    await count.settled();
    expect(count.count()).toBe(1);
  });

  it('tells whether an instance heartbeats now', async () => {
    const clock = new ManualClock(START);
    const processes = new LiveProcesses({ clock, jobs: { liveInstances: async () => [instance('a', at(1)), instance('gone', at(25))] } });
    expect(await processes.isAlive('a')).toBe(true);
    expect(await processes.isAlive('gone')).toBe(false);
    expect(await processes.isAlive('never')).toBe(false);
  });

  it('keeps the last count while the database cannot answer', async () => {
    const clock = new ManualClock(START);
    let failing = false;
    const count = new LiveProcesses({
      clock,
      jobs: {
        liveInstances: async () => {
          if (failing) throw new Error('connection reset');
          return [instance('a', at(0)), instance('b', at(0)), instance('c', at(0))];
        },
      },
    });
    count.count();
    await count.settled();
    failing = true;
    await clock.advance(5_000);
    count.count();
    await count.settled();
    expect(count.count()).toBe(3);
  });
});
