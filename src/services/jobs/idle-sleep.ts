import type { Clock } from '../../core/clock.ts';

/**
 * How an idle job worker sleeps: until the earliest due time it knows of (its own retries and postponements), the poll
 * at most, so a delivery Discord asked to wait 300 ms goes out then, not at the next poll; `wake` ends a sleep at once.
 */
export class IdleSleep {
  /** Clock milliseconds, ascending. */
  private readonly times: number[] = [];
  private stopWaiting: (() => void) | null = null;
  /** Sets the sleep's timer again, for a due time learnt while it sleeps. */
  private rearm: (() => void) | null = null;

  constructor(
    private readonly clock: Clock,
    /** Real milliseconds a sleep lasts at most. */
    private readonly pollMs: number,
  ) {}

  /** Remembers a job due at `time`; a sleep under way ends then if that is sooner. */
  expect(time: Date): void {
    let index = this.times.length;
    while (index > 0 && this.times[index - 1]! > time.getTime()) index -= 1;
    this.times.splice(index, 0, time.getTime());
    this.rearm?.();
  }

  /** Forgets the times up to `now`: a claim made at `now` takes those jobs (unless another worker took them). */
  passed(now: Date): void {
    let count = 0;
    while (count < this.times.length && this.times[count]! <= now.getTime()) count += 1;
    this.times.splice(0, count);
  }

  /** How long a sleep that may still last `pollLeftMs` lasts at `now`: until the earliest known due time at most. */
  waitMs(now: Date, pollLeftMs = this.pollMs): number {
    const earliest = this.times[0];
    return earliest === undefined ? pollLeftMs : Math.max(0, Math.min(pollLeftMs, earliest - now.getTime()));
  }

  /** Sleeps until the earliest known due time or the poll, whichever comes first, or until `wake`. */
  async sleep(): Promise<void> {
    const pollEnd = performance.now() + this.pollMs;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(resolve, this.waitMs(this.clock.now(), Math.max(0, pollEnd - performance.now())));
      };
      this.rearm();
      this.stopWaiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.stopWaiting = null;
    this.rearm = null;
  }

  /** Ends a sleep under way at once (work was queued, or the worker stops). */
  wake(): void {
    this.stopWaiting?.();
  }
}
