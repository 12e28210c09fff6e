import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../logging/logger.ts';
import { EndpointRateLimiter, type RateLimits } from './endpoint-rate-limiter.ts';
import { readProviderBudget } from './rate-limit-headers.ts';

/** How many requests wait for one endpoint's budget (the `/metrics` gauge). */
export interface EndpointQueueDepth {
  /** The endpoint's host (`openrouter.ai`, `localhost:11434`). */
  endpoint: string;
  depth: number;
}

/** One rate limiter per endpoint base URL, fed by the endpoint's response headers. */
export class EndpointLimiters {
  private readonly limiters = new Map<string, EndpointRateLimiter>();

  constructor(
    private readonly clock: Clock,
    /** Our own limits for an endpoint (the defaults, or a roster entry's). */
    private readonly limitsFor: (baseUrl: string) => RateLimits,
    private readonly logger?: Logger,
  ) {}

  /** The limiter of an endpoint, built once. */
  for(baseUrl: string): EndpointRateLimiter {
    let limiter = this.limiters.get(baseUrl);
    if (!limiter) {
      limiter = new EndpointRateLimiter(baseUrl, this.clock, this.limitsFor(baseUrl));
      this.limiters.set(baseUrl, limiter);
    }
    return limiter;
  }

  /** Takes in the budget a chat completion response reports (nothing to do when it reports none). */
  observe(baseUrl: string, response: Response): void {
    const budget = readProviderBudget(response.headers, response.status, this.clock.now());
    if (Object.keys(budget).length === 0) return;
    if (response.status === 429) this.logger?.warn({ endpoint: hostOf(baseUrl), ...budget }, 'endpoint rate limited; pausing its queue');
    this.for(baseUrl).observe(budget);
  }

  /** Queue depth per endpoint host, for every endpoint used so far. */
  depths(): EndpointQueueDepth[] {
    const byHost = new Map<string, number>();
    for (const limiter of this.limiters.values()) {
      const host = hostOf(limiter.endpoint);
      byHost.set(host, (byHost.get(host) ?? 0) + limiter.depth);
    }
    return [...byHost].map(([endpoint, depth]) => ({ endpoint, depth }));
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
