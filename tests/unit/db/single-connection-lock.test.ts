import { describe, expect, it } from 'vitest';
import { SingleConnectionLock, type StatementPriority } from '../../../src/db/single-connection-lock.ts';

/** Takes the lock, notes the holder's name, and gives it back when the returned function is called. */
function holder(lock: SingleConnectionLock, order: string[], name: string, priority: StatementPriority): Promise<() => void> {
  return lock.acquire(priority).then((release) => {
    order.push(name);
    return release;
  });
}

describe('SingleConnectionLock', () => {
  it('grants one holder at a time, in order of arrival within a priority', async () => {
    const lock = new SingleConnectionLock();
    const order: string[] = [];
    const first = holder(lock, order, 'first', 'turn');
    const second = holder(lock, order, 'second', 'turn');
    const third = holder(lock, order, 'third', 'turn');
    (await first)();
    (await second)();
    (await third)();
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('lets a waiting turn statement go before background statements that waited longer', async () => {
    const lock = new SingleConnectionLock();
    const order: string[] = [];
    const running = await holder(lock, order, 'running', 'background');
    const traces = [holder(lock, order, 'trace 1', 'background'), holder(lock, order, 'trace 2', 'background')];
    const turn = holder(lock, order, 'turn', 'turn');
    running();
    (await turn)();
    for (const trace of traces) (await trace)();
    expect(order).toEqual(['running', 'turn', 'trace 1', 'trace 2']);
  });

  it('never makes a turn statement wait for a background one that is only queued', async () => {
    const lock = new SingleConnectionLock();
    const order: string[] = [];
    const running = await holder(lock, order, 'turn 1', 'turn');
    const trace = holder(lock, order, 'trace', 'background');
    const next = holder(lock, order, 'turn 2', 'turn');
    running();
    (await next)();
    (await trace)();
    expect(order).toEqual(['turn 1', 'turn 2', 'trace']);
  });

  it('ignores a second release of the same hold', async () => {
    const lock = new SingleConnectionLock();
    const order: string[] = [];
    const release = await holder(lock, order, 'first', 'turn');
    const second = holder(lock, order, 'second', 'turn');
    const third = holder(lock, order, 'third', 'turn');
    release();
    release();
    await second;
    const raced = await Promise.race([third.then(() => 'third granted'), Promise.resolve().then(() => 'third waits')]);
    expect(raced).toBe('third waits');
    expect(order).toEqual(['first', 'second']);
  });
});

describe('SingleConnectionLock use', () => {
  it('counts the waits by priority, and the connection busy while any statement is in flight, one under way up to now', async () => {
    let now = 1000;
    const lock = new SingleConnectionLock(() => now);
    const first = await lock.acquire('turn');
    const trace = lock.acquire('background');
    now += 40;
    first();
    (await trace)();
    expect(lock.use().waits).toEqual({ turn: { count: 1, seconds: 0 }, background: { count: 1, seconds: 0.04 } });

    let finishFirst = () => {};
    let finishSecond = () => {};
    void lock.track(new Promise<void>((resolve) => (finishFirst = resolve)));
    now += 10;
    void lock.track(new Promise<void>((resolve) => (finishSecond = resolve)));
    now += 20;
    finishFirst();
    await Promise.resolve();
    now += 5;
    expect(lock.use().busySeconds).toBeCloseTo(0.035, 6);
    finishSecond();
    await Promise.resolve();
    now += 100;
    // Overlapping statements count once; idle time not at all.
    expect(lock.use().busySeconds).toBeCloseTo(0.035, 6);
  });
});
