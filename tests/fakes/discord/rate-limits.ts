/** Discord's per-route buckets and rate-limit headers, plus 429 bursts that tests inject. */
import { createHash } from 'node:crypto';

/** One request as the limiter sees it. */
export interface RateLimitedRequest {
  method: string;
  /** The route's name in the fake, e.g. `webhook.execute`, `message.create`. */
  routeName: string;
  /** The bucket's route template plus its major parameter (channel, webhook, guild). */
  bucketKey: string;
}

/** A burst of 429s for the next `count` matching requests. */
export interface RateLimitInjection {
  /** A route name (`webhook.execute`), a list of them, or `*` for any route. */
  route: string | string[];
  count: number;
  /** Seconds the client must wait (Discord sends fractions in the body; we send them in the header too). */
  retryAfterSeconds?: number;
  global?: boolean;
}

/** What the limiter decided for one request. */
export interface RateLimitDecision {
  headers: Record<string, string>;
  limited: { retryAfterSeconds: number; global: boolean } | null;
}

/** A 429 the fake answered, kept so tests can see a burst really happened. */
export interface RateLimitHit {
  routeName: string;
  method: string;
  atMs: number;
  injected: boolean;
  global: boolean;
}

interface Bucket {
  windowStartMs: number;
  used: number;
}

/** Counts requests per bucket in fixed windows and answers 429 when a window is exhausted or a burst is injected. */
export class FakeRateLimits {
  readonly hits: RateLimitHit[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private readonly injections: (RateLimitInjection & { left: number })[] = [];

  constructor(private readonly options: { limit: number; windowMs: number }) {}

  /** Queues a burst of 429s. */
  inject(injection: RateLimitInjection): void {
    this.injections.push({ ...injection, left: injection.count });
  }

  /** How many injected 429s are still to be served. */
  get pendingInjected(): number {
    return this.injections.reduce((sum, injection) => sum + injection.left, 0);
  }

  /** Decides one request: rate-limit headers always, and a 429 when limited. */
  check(request: RateLimitedRequest, nowMs = Date.now()): RateLimitDecision {
    const bucket = this.bucketFor(request.bucketKey, nowMs);
    const resetAfterMs = Math.max(0, bucket.windowStartMs + this.options.windowMs - nowMs);
    const hash = createHash('sha1').update(`${request.method}:${request.bucketKey}`).digest('hex').slice(0, 16);
    const injected = this.takeInjection(request.routeName);
    if (injected) {
      this.hits.push({ routeName: request.routeName, method: request.method, atMs: nowMs, injected: true, global: injected.global });
      return { headers: this.limitedHeaders(hash, injected.retryAfterSeconds, injected.global, nowMs), limited: injected };
    }
    if (bucket.used >= this.options.limit) {
      const retryAfterSeconds = resetAfterMs / 1000;
      this.hits.push({ routeName: request.routeName, method: request.method, atMs: nowMs, injected: false, global: false });
      return { headers: this.limitedHeaders(hash, retryAfterSeconds, false, nowMs), limited: { retryAfterSeconds, global: false } };
    }
    bucket.used += 1;
    return { headers: this.bucketHeaders(hash, bucket, resetAfterMs), limited: null };
  }

  private bucketFor(key: string, nowMs: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket || nowMs >= bucket.windowStartMs + this.options.windowMs) {
      bucket = { windowStartMs: nowMs, used: 0 };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private takeInjection(routeName: string): { retryAfterSeconds: number; global: boolean } | null {
    const injection = this.injections.find((entry) => entry.left > 0 && matches(entry.route, routeName));
    if (!injection) return null;
    injection.left -= 1;
    return { retryAfterSeconds: injection.retryAfterSeconds ?? 0.05, global: injection.global ?? false };
  }

  private bucketHeaders(hash: string, bucket: Bucket, resetAfterMs: number): Record<string, string> {
    const resetAtSeconds = (bucket.windowStartMs + this.options.windowMs) / 1000;
    return {
      'X-RateLimit-Limit': String(this.options.limit),
      'X-RateLimit-Remaining': String(Math.max(0, this.options.limit - bucket.used)),
      'X-RateLimit-Reset': resetAtSeconds.toFixed(3),
      'X-RateLimit-Reset-After': (resetAfterMs / 1000).toFixed(3),
      'X-RateLimit-Bucket': hash,
    };
  }

  private limitedHeaders(hash: string, retryAfterSeconds: number, global: boolean, nowMs: number): Record<string, string> {
    // On a 429 Discord says the bucket is empty until the retry time: clients wait exactly that long.
    const headers: Record<string, string> = { 'Retry-After': String(retryAfterSeconds), 'X-RateLimit-Scope': global ? 'global' : 'user' };
    if (global) return { ...headers, 'X-RateLimit-Global': 'true' };
    return {
      ...headers,
      'X-RateLimit-Limit': String(this.options.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': ((nowMs + retryAfterSeconds * 1000) / 1000).toFixed(3),
      'X-RateLimit-Reset-After': retryAfterSeconds.toFixed(3),
      'X-RateLimit-Bucket': hash,
    };
  }
}

function matches(route: string | string[], routeName: string): boolean {
  const routes = Array.isArray(route) ? route : [route];
  return routes.includes('*') || routes.includes(routeName);
}
