/** Time, injected everywhere so tests drive it instead of sleeping. */
export interface Clock {
  now(): Date;
  /** Resolves after `milliseconds` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (milliseconds, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      // A deadline already past (computed from two readings of the clock) is a sleep of nothing, as on ManualClock;
      // Node would wait 1 ms all the same and print a TimeoutNegativeWarning into the logs.
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, milliseconds),
      );
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface Sleeper {
  wakeAt: number;
  resolve: () => void;
}

/** A clock that moves only when told to; sleepers wake as `advance` passes their time. */
export class ManualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private uses = 0;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    this.uses += 1;
    return new Date(this.current);
  }

  sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
    this.uses += 1;
    if (milliseconds <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = { wakeAt: this.current + milliseconds, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((entry) => entry !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Moves time forward, waking every sleeper whose time has come (and letting their continuations run). */
  async advance(milliseconds: number): Promise<void> {
    const target = this.current + milliseconds;
    for (;;) {
      const due = this.sleepers.filter((entry) => entry.wakeAt <= target).sort((a, b) => a.wakeAt - b.wakeAt)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.wakeAt);
      this.sleepers = this.sleepers.filter((entry) => entry !== due);
      due.resolve();
      await flushMicrotasks();
    }
    // Two overlapping advances (a test's and a settle ticker's) must never move time backwards.
    this.current = Math.max(this.current, target);
    await flushMicrotasks();
  }

  /** How many sleepers are waiting (tests use it to wait until code has reached a sleep). */
  get pendingSleepers(): number {
    return this.sleepers.length;
  }

  /** Milliseconds until the earliest sleeper wakes, or undefined when none waits. */
  get untilNextWake(): number | undefined {
    if (this.sleepers.length === 0) return undefined;
    return Math.max(0, Math.min(...this.sleepers.map((entry) => entry.wakeAt)) - this.current);
  }

  /** How often code has read or slept on this clock; unchanged between two looks means the code was quiet. */
  get useCount(): number {
    return this.uses;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let index = 0; index < 5; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
