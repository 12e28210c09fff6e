import { describe, expect, it } from 'vitest';
import { keepBeside, newRuntime, runningWork, unlessPersonSpeaks, withOwed } from '../../../../src/services/coordinator/coordinator-runtime.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const person = (id: number) => chatMessage({ id, speaker: { kind: 'human', id: 'dana', name: 'Dana' }, text: 'A question' });

/** A promise and its resolver. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('a check between rounds', () => {
  it('is waited for when nobody speaks', async () => {
    const runtime = newRuntime();
    const check = deferred<boolean>();
    const waiting = unlessPersonSpeaks(runtime, check.promise);
    check.resolve(true);
    expect(await waiting).toBe(true);
    expect(runtime.wake).toBeNull();
    expect(runningWork(runtime)).toEqual([]);
  });

  it('gives way to a person who speaks, and goes on beside their round until it ends', async () => {
    const runtime = newRuntime();
    const check = deferred<boolean>();
    const waiting = unlessPersonSpeaks(runtime, check.promise);
    runtime.pendingHumans.push(person(7));
    runtime.wake?.();
    expect(await waiting).toBe('person');
    expect(runningWork(runtime)).toEqual([check.promise]);
    check.resolve(false);
    await check.promise;
    await Promise.resolve();
    expect(runningWork(runtime)).toEqual([]);
  });

  it('gives way at once to a person already waiting', async () => {
    const runtime = newRuntime();
    runtime.pendingHumans.push(person(8));
    expect(await unlessPersonSpeaks(runtime, new Promise<boolean>(() => undefined))).toBe('person');
  });
});

describe('answers owed to people who spoke while participants were still writing', () => {
  it('are added to those owed before, never put in their place', () => {
    const bob = person(9);
    const carol = person(11);
    const first = withOwed(null, [bob], new Set(['chatgpt', 'grok']));
    expect(first).toEqual({ humans: [bob], participantIds: new Set(['chatgpt', 'grok']) });
    const both = withOwed(first, [carol, bob], new Set(['grok', 'claude']));
    expect(both.humans).toEqual([bob, carol]);
    expect(both.participantIds).toEqual(new Set(['chatgpt', 'grok', 'claude']));
  });
});

describe('work kept beside a round', () => {
  it('is let go when it fails, without an unhandled rejection (its failure is its own to handle)', async () => {
    const runtime = newRuntime();
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const work = Promise.reject(new Error('the database server is unreachable'));
      work.catch(() => undefined);
      keepBeside(runtime, work);
      expect(runningWork(runtime)).toEqual([work]);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(runningWork(runtime)).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
