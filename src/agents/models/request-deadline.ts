import { BrainstormError } from '../../core/errors.ts';
import type { Clock } from '../../core/clock.ts';

/** A request that took longer than its deadline (retried like a network timeout). */
export class ModelTimeoutError extends BrainstormError<'ETIMEDOUT'> {
  constructor(modelId: string, timeoutMs: number) {
    super('ETIMEDOUT', `The model ${modelId} sent nothing for ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'ModelTimeoutError';
  }
}

/**
 * A per-attempt deadline on the injected clock (so tests drive it): its signal aborts the attempt when the time
 * runs out without activity, or when the caller's signal aborts. `touch` restarts it (a stream that is moving).
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private timer = new AbortController();
  private expired = false;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
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

  /** Restarts the countdown. */
  touch(): void {
    this.timer.abort();
    this.timer = new AbortController();
    this.arm();
  }

  /** Stops the countdown and lets go of the caller's signal. */
  clear(): void {
    this.timer.abort();
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private arm(): void {
    if (this.timeoutMs <= 0 || this.controller.signal.aborted) return;
    const timer = this.timer;
    this.clock.sleep(this.timeoutMs, timer.signal).then(
      () => {
        if (timer.signal.aborted || this.controller.signal.aborted) return;
        this.expired = true;
        this.controller.abort(new Error('deadline'));
      },
      () => undefined,
    );
  }
}
