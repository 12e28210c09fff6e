/** A client-side limit on Notion requests per integration, on the injected clock. */
import type { Clock } from '../core/clock.ts';

/** A request's place in the window: taken when it is sent, counted from its answer once it has one. */
interface Place {
  answeredAt: number | null;
}

/**
 * At most `capacity` requests in any window of `windowMs` (3 per 1000 ms for 3 req/s; 1 per 2000 ms for 0.5 req/s;
 * a part of them for each process when several share one integration),
 * the sliding window Notion's fake enforces, so a client that honours it never sees 429. Notion counts a request when
 * it arrives, which we cannot see: only that it lies between the sending and the answer. So a request holds its place
 * from its sending until a window after its answer, and two requests never arrive closer than the window allows,
 * however the network delays one of them. Counted from the sending, as before, 9 of 30 requests at the limit were
 * refused with 429 on loopback.
 */
export class RequestLimiter {
  private readonly capacity: number;
  private places: Place[] = [];
  private readonly waitingForAnswers = new Set<() => void>();

  /** `share`: how many processes share the integration's budget now (each takes its part; default 1). */
  constructor(
    private readonly clock: Clock,
    private readonly requestsPerSecond: number,
    private readonly share: () => number = () => 1,
  ) {
    this.capacity = Math.max(1, Math.floor(requestsPerSecond));
  }

  /**
   * This process's part: its share of the places (at least one), in a window that keeps its average to its share of
   * the rate (3 req/s over two processes: 1 request per 667 ms each; 20 req/s: 10 per 1000 ms each).
   */
  private part(): { places: number; windowMs: number } {
    const share = Math.max(1, this.share());
    const places = Math.max(1, Math.floor(this.capacity / share));
    return { places, windowMs: Math.ceil((1000 * places * share) / this.requestsPerSecond) };
  }

  /** Milliseconds until a request may be sent (0: now); a window when every place waits on an answer. Does not reserve. */
  waitMs(): number {
    const wait = this.nextPlace();
    return wait === 'after_an_answer' ? this.part().windowMs : wait;
  }

  /** Waits (on the clock) until a request may be sent and takes a place; call the returned function on its answer. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (let wait = this.nextPlace(); wait !== 0; wait = this.nextPlace()) {
      if (wait === 'after_an_answer') await this.anAnswer(signal);
      else await this.clock.sleep(wait, signal);
    }
    const place: Place = { answeredAt: null };
    this.places.push(place);
    return () => {
      if (place.answeredAt !== null) return;
      place.answeredAt = this.clock.now().getTime();
      for (const wake of [...this.waitingForAnswers]) wake();
    };
  }

  /** 0 when a place is free, the milliseconds until one frees, or 'after_an_answer' when every place is on its way. */
  private nextPlace(): number | 'after_an_answer' {
    const { places, windowMs } = this.part();
    const since = this.clock.now().getTime() - windowMs;
    this.places = this.places.filter((place) => place.answeredAt === null || place.answeredAt > since);
    if (this.places.length < places) return 0;
    const answered = this.places.flatMap((place) => (place.answeredAt === null ? [] : [place.answeredAt]));
    return answered.length === 0 ? 'after_an_answer' : Math.max(1, Math.min(...answered) - since);
  }

  private anAnswer(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.waitingForAnswers.delete(wake);
        reject(signal?.reason);
      };
      const wake = () => {
        this.waitingForAnswers.delete(wake);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waitingForAnswers.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
