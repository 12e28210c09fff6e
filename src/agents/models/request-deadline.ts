import { BrainstormError } from '../../core/errors.ts';
import type { Clock } from '../../core/clock.ts';

/** A request that took longer than its deadline (retried like a network timeout). */
export class ModelTimeoutError extends BrainstormError<'ETIMEDOUT'> {
  constructor(modelId: string, timeoutMs: number) {
    super('ETIMEDOUT', `The model ${modelId} sent nothing for ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'ModelTimeoutError';
  }
}

/** Why a countdown's sleep is cut: a reason of our own, so stopping a timer builds no DOMException per request. */
const COUNTDOWN_STOPPED = new Error('countdown stopped');

/**
 * A per-attempt deadline on the injected clock (so tests drive it): its signal aborts the attempt when the time
 * runs out without activity, or when the caller's signal aborts. `touch` restarts it (a stream that is moving).
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly timer = new AbortController();
  private expired = false;
  /** When the attempt last showed activity (its start, or its latest chunk). */
  private lastActivity: number;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.lastActivity = clock.now().getTime();
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm();
  }

  /** The signal to give the attempt. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the deadline (not the caller) ended the attempt. */
  get timedOut(): boolean {
    return this.expired;
  }

  /**
   * Restarts the countdown. Called for every chunk of a stream, so it only notes the time: the one armed sleep
   * checks it when it wakes and sleeps the rest (a timer and a signal per chunk cost more than the chunk).
   */
  touch(): void {
    this.lastActivity = this.clock.now().getTime();
  }

  /** Stops the countdown and lets go of the caller's signal. */
  clear(): void {
    this.timer.abort(COUNTDOWN_STOPPED);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private arm(milliseconds = this.timeoutMs): void {
    if (this.timeoutMs <= 0 || this.controller.signal.aborted) return;
    const timer = this.timer;
    this.clock.sleep(milliseconds, timer.signal).then(
      () => {
        if (timer.signal.aborted || this.controller.signal.aborted) return;
        const quiet = this.clock.now().getTime() - this.lastActivity;
        if (quiet < this.timeoutMs) return this.arm(this.timeoutMs - quiet);
        this.expired = true;
        this.controller.abort(new Error('deadline'));
      },
      () => undefined,
    );
  }
}
