import type { Clock } from '../../core/clock.ts';

/** A sliding one-minute window of commands per person; commands beyond the limit are refused. */
export class CommandRateLimiter {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: () => number,
  ) {}

  /** Records an attempt; returns the seconds to wait when over the limit, or 0 when allowed. */
  attempt(personId: string): number {
    const now = this.clock.now().getTime();
    const windowStart = now - 60_000;
    const times = (this.recent.get(personId) ?? []).filter((time) => time > windowStart);
    if (times.length >= this.perMinute()) {
      this.recent.set(personId, times);
      return Math.max(1, Math.ceil(((times[0] ?? now) + 60_000 - now) / 1000));
    }
    times.push(now);
    this.recent.set(personId, times);
    return 0;
  }
}
