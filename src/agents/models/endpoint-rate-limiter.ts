import type { Clock } from '../../core/clock.ts';
import type { ProviderBudget } from './rate-limit-headers.ts';

/** Our own budget for one endpoint; 0 means no limit of ours (the provider's headers still count). */
export interface RateLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

/** No limits of our own: only what the provider tells us. */
export const NO_RATE_LIMITS: RateLimits = { requestsPerMinute: 0, tokensPerMinute: 0 };

/** Which budget a request waited for. */
export type WaitReason = 'queue' | 'requests_per_minute' | 'tokens_per_minute' | 'provider_requests' | 'provider_tokens' | 'retry_after';

/** One admitted request. */
export interface RateLimitGrant {
  /** How long it waited on the clock before it was sent (0: admitted at once). */
  readonly waitedMs: number;
  /** What it waited for last, if it waited. */
  readonly reason: WaitReason | undefined;
  /** Replaces the estimate with the tokens the request really used, once known. */
  settle(tokens: number | undefined): void;
}

interface Sent {
  at: number;
  tokens: number;
}

interface Waiter {
  readonly tokens: number;
  turn: Promise<void>;
  wake: () => void;
}

interface Delay {
  ms: number;
  reason: WaitReason | undefined;
}

/** The window both per-minute budgets are counted over. */
const WINDOW_MS = 60_000;

/**
 * Paces the requests to one endpoint: a sliding minute of requests and tokens against our limits, the budget the
 * provider reported in its headers, and a pause after a 429. A request that would overdraw waits its turn in a
 * FIFO queue on the injected clock instead of being refused; its caller's signal still cancels the wait.
 */
export class EndpointRateLimiter {
  private readonly sent: Sent[] = [];
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private remainingRequests: { count: number; resetAt: number } | undefined;
  private remainingTokens: { count: number; resetAt: number } | undefined;

  constructor(
    /** The endpoint's base URL. */
    readonly endpoint: string,
    private readonly clock: Clock,
    private readonly limits: RateLimits,
  ) {}

  /** Requests waiting for their turn (the one at the head included). */
  get depth(): number {
    return this.queue.length;
  }

  /** Whether a request's tokens matter (a token budget of ours or the provider's); else callers need not estimate them. */
  get countsTokens(): boolean {
    return this.limits.tokensPerMinute > 0 || this.remainingTokens !== undefined;
  }

  /** Admits a request at once when nobody is queued and the budget allows it; undefined means it must wait. */
  tryAcquire(tokens: number): RateLimitGrant | undefined {
    if (this.queue.length > 0 || this.delayFor(tokens).ms > 0) return undefined;
    return this.grant(tokens, 0, undefined);
  }

  /** Waits in line until the budget allows the request; rejects with the signal's reason when it aborts. */
  async acquire(tokens: number, signal?: AbortSignal): Promise<RateLimitGrant> {
    const started = this.clock.now().getTime();
    const waiter = this.enqueue(tokens);
    let reason: WaitReason | undefined = this.queue.length > 1 ? 'queue' : undefined;
    try {
      await untilTurn(waiter.turn, signal);
      for (let delay = this.delayFor(tokens); delay.ms > 0; delay = this.delayFor(tokens)) {
        reason = delay.reason;
        await this.clock.sleep(delay.ms, signal);
      }
      return this.grant(tokens, this.clock.now().getTime() - started, reason);
    } finally {
      this.leave(waiter);
    }
  }

  /** Takes in what a response's headers said: the provider's remaining budget, or a 429's Retry-After. */
  observe(budget: ProviderBudget): void {
    const now = this.clock.now().getTime();
    if (budget.remainingRequests !== undefined && budget.requestsResetMs !== undefined) {
      this.remainingRequests = { count: budget.remainingRequests, resetAt: now + budget.requestsResetMs };
    }
    if (budget.remainingTokens !== undefined && budget.tokensResetMs !== undefined) {
      this.remainingTokens = { count: budget.remainingTokens, resetAt: now + budget.tokensResetMs };
    }
    if (budget.retryAfterMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + budget.retryAfterMs);
  }

  private enqueue(tokens: number): Waiter {
    const waiter: Waiter = { tokens, turn: Promise.resolve(), wake: () => undefined };
    waiter.turn = new Promise<void>((resolve) => (waiter.wake = resolve));
    this.queue.push(waiter);
    if (this.queue.length === 1) waiter.wake();
    return waiter;
  }

  /** Leaves the line (admitted or aborted); the next in line gets its turn when the head leaves. */
  private leave(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    if (index === 0) this.queue[0]?.wake();
  }

  private grant(tokens: number, waitedMs: number, reason: WaitReason | undefined): RateLimitGrant {
    const entry: Sent = { at: this.clock.now().getTime(), tokens };
    this.sent.push(entry);
    if (this.remainingRequests) this.remainingRequests.count -= 1;
    if (this.remainingTokens) this.remainingTokens.count -= tokens;
    return {
      waitedMs,
      reason,
      settle: (actual) => {
        if (actual !== undefined && Number.isFinite(actual) && actual >= 0) entry.tokens = actual;
      },
    };
  }

  /** How long a request of `tokens` must still wait, and for which budget (the longest wait wins). */
  private delayFor(tokens: number): Delay {
    const now = this.clock.now().getTime();
    while (this.sent.length > 0 && (this.sent[0]?.at ?? now) + WINDOW_MS <= now) this.sent.shift();
    const waits: Delay[] = [
      { ms: this.pausedUntil - now, reason: 'retry_after' },
      { ms: this.requestWindowWait(now), reason: 'requests_per_minute' },
      { ms: this.tokenWindowWait(tokens, now), reason: 'tokens_per_minute' },
      { ms: this.providerWait('requests', 1, now), reason: 'provider_requests' },
      { ms: this.providerWait('tokens', tokens, now), reason: 'provider_tokens' },
    ];
    return waits.reduce((longest, wait) => (wait.ms > longest.ms ? wait : longest), { ms: 0, reason: undefined });
  }

  private requestWindowWait(now: number): number {
    const limit = this.limits.requestsPerMinute;
    if (limit <= 0 || this.sent.length < limit) return 0;
    return (this.sent[this.sent.length - limit]?.at ?? now) + WINDOW_MS - now;
  }

  /** Until enough of the window's tokens have aged out; a request larger than the whole budget waits for an empty window. */
  private tokenWindowWait(tokens: number, now: number): number {
    const limit = this.limits.tokensPerMinute;
    if (limit <= 0) return 0;
    let used = this.sent.reduce((total, entry) => total + entry.tokens, 0);
    const needed = Math.min(tokens, limit);
    let freedAt = now;
    for (const entry of this.sent) {
      if (used + needed <= limit) break;
      used -= entry.tokens;
      freedAt = entry.at + WINDOW_MS;
    }
    return freedAt - now;
  }

  /** The provider's word: nothing left until its reset (a passed reset means the budget is whole again). */
  private providerWait(kind: 'requests' | 'tokens', needed: number, now: number): number {
    const budget = kind === 'requests' ? this.remainingRequests : this.remainingTokens;
    if (!budget || budget.resetAt <= now) return 0;
    return budget.count >= needed ? 0 : budget.resetAt - now;
  }
}

/** Resolves when the waiter's turn comes; rejects with the signal's reason if it aborts first. */
function untilTurn(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return turn;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}
