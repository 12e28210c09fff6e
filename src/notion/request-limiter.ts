/** A client-side limit on Notion requests per integration, on the injected clock. */
import type { Clock } from '../core/clock.ts';

/**
 * At most `capacity` requests in any window of `windowMs` (3 per 1000 ms for 3 req/s; 1 per 2000 ms for
 * 0.5 req/s), the same sliding window Notion's fake enforces, so a client that honours it never sees 429.
 */
export class RequestLimiter {
  private readonly capacity: number;
  private readonly windowMs: number;
  private sent: number[] = [];

  constructor(
    private readonly clock: Clock,
    requestsPerSecond: number,
  ) {
    this.capacity = Math.max(1, Math.floor(requestsPerSecond));
    this.windowMs = Math.ceil((1000 * this.capacity) / requestsPerSecond);
  }

  /** Milliseconds until a request may be sent (0: now). Does not reserve. */
  waitMs(): number {
    const now = this.clock.now().getTime();
    this.sent = this.sent.filter((at) => at > now - this.windowMs);
    if (this.sent.length < this.capacity) return 0;
    return (this.sent[0] ?? now) + this.windowMs - now;
  }

  /** Records a request sent now. */
  record(): void {
    this.sent.push(this.clock.now().getTime());
  }

  /** Waits (on the clock) until a request may be sent, then records it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) await this.clock.sleep(wait, signal);
    this.record();
  }
}
