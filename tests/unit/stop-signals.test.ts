import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { startedByNpm } from '../../src/config/launch.ts';
import { listenForStopSignal, npmParentWatch, type ParentWatch, type SignalSource } from '../../src/stop-signals.ts';

/** A process stand-in: signals are emitted by the test, exits are recorded. */
class FakeProcess extends EventEmitter implements SignalSource {
  exits: number[] = [];

  override on(signal: NodeJS.Signals, listener: () => void): this {
    return super.on(signal, listener);
  }

  exit(code: number): void {
    this.exits.push(code);
  }
}

it('answers the first stop signal, whenever it came, and ends the process at once on a second', async () => {
  const fake = new FakeProcess();
  const stop = listenForStopSignal(fake);
  fake.emit('SIGTERM');
  expect(await stop).toBe('SIGTERM');
  expect(fake.exits).toEqual([]);
  fake.emit('SIGINT');
  expect(fake.exits).toEqual([130]);
  fake.emit('SIGTERM');
  expect(fake.exits).toEqual([130, 143]);
});

it('answers a SIGINT as well', async () => {
  const fake = new FakeProcess();
  const stop = listenForStopSignal(fake);
  fake.emit('SIGINT');
  expect(await stop).toBe('SIGINT');
});

/** A parent watch driven by the test: it changes the parent's pid and runs the checks. */
class FakeParent implements ParentWatch {
  pid = 4100;
  private readonly checks: (() => void)[] = [];
  parentPid(): number {
    return this.pid;
  }
  every(_intervalMs: number, check: () => void): void {
    this.checks.push(check);
  }
  tick(): void {
    for (const check of this.checks) check();
  }
}

it('stops when the parent that started it exits (npm start, whose shell dies of the SIGTERM), never as a second signal', async () => {
  const fake = new FakeProcess();
  const parent = new FakeParent();
  const stop = listenForStopSignal(fake, parent);
  parent.tick();
  let reason: string | null = null;
  void stop.then((value) => (reason = value));
  await Promise.resolve();
  expect(reason).toBeNull();

  parent.pid = 1;
  parent.tick();
  expect(await stop).toBe('parent_exited');
  // npm may pass the SIGTERM on as well: that is the first signal, not a second one.
  fake.emit('SIGTERM');
  expect(fake.exits).toEqual([]);
  fake.emit('SIGTERM');
  expect(fake.exits).toEqual([143]);
});

it('watches the parent only when npm started the process', () => {
  expect(startedByNpm({})).toBe(false);
  expect(startedByNpm({ npm_lifecycle_event: 'start' })).toBe(true);
  expect(npmParentWatch(false)).toBeUndefined();
  expect(npmParentWatch(true)?.parentPid()).toBe(process.ppid);
});
