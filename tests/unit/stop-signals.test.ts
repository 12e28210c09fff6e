import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { listenForStopSignal, type SignalSource } from '../../src/stop-signals.ts';

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
