import type { Clock } from '../../core/clock.ts';

/** A sliding one-minute window of commands per person; commands beyond the limit are refused. */
export class CommandRateLimiter {
  private readonly recent = new Map<string, number[]>();
  private nextSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: () => number,
  ) {}

  /** Records an attempt; returns the seconds to wait when over the limit, or 0 when allowed. */
  attempt(personId: string): number {
    const now = this.clock.now().getTime();
    const windowStart = now - 60_000;
    this.forgetQuietPeople(now, windowStart);
    const times = (this.recent.get(personId) ?? []).filter((time) => time > windowStart);
    if (times.length >= this.perMinute()) {
      this.recent.set(personId, times);
      return Math.max(1, Math.ceil(((times[0] ?? now) + 60_000 - now) / 1000));
    }
    times.push(now);
    this.recent.set(personId, times);
    return 0;
  }

  /** Drops the people with no command in the window, at most once a window: everyone who ever ran one was kept. */
  private forgetQuietPeople(now: number, windowStart: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [personId, times] of this.recent) if ((times.at(-1) ?? Number.NEGATIVE_INFINITY) <= windowStart) this.recent.delete(personId);
  }
}
