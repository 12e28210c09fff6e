import type { Clock } from '../../core/clock.ts';
import { ModelUnavailableError } from './model-errors.ts';

/** Breaker states: closed lets everything through, open fails fast, half-open lets one trial through. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** A snapshot of one breaker, for status pages and the coordinator. */
export interface BreakerStatus {
  id: string;
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: Date | undefined;
  /** When an open breaker lets a trial request through. */
  retryAt: Date | undefined;
}

/** Emitted when a breaker opens (a seat is benched) or closes again. */
export interface BreakerChange {
  id: string;
  state: BreakerState;
  previous: BreakerState;
  at: Date;
  reason: string | undefined;
}

/** One admitted request; settle it once: success closes the breaker, failure counts (a failed trial re-opens). */
export interface BreakerPermit {
  /** True for the single half-open trial: it gets one attempt, no retries. */
  readonly trial: boolean;
  succeed(): void;
  fail(reason: string): void;
  /** Ends the request without a verdict (aborted, or the consumer stopped reading); frees a trial slot. */
  release(): void;
}

/** Listens to breaker changes. */
export type BreakerListener = (change: BreakerChange) => void;

/** Breaker tuning. */
export interface BreakerSettings {
  failureThreshold: number;
  coolDownMs: number;
}

/** Opens after 3 consecutive failed requests and stays open for a minute. */
export const DEFAULT_BREAKER: BreakerSettings = { failureThreshold: 3, coolDownMs: 60_000 };

/**
 * A circuit breaker for one model at one endpoint, driven by an injected clock. Not cockatiel's: its breaker reads
 * `Date.now()` and its retry and timeout policies use `setTimeout` (tests could not drive them with ManualClock); an
 * error it does not handle (an aborted turn) counts as a half-open success and closes it, where ours frees the trial
 * without a verdict; callers during its trial wait for the verdict, where ours fail fast so the seat is benched; and a
 * stream's verdict comes when `response_done` passes, not when one function returns.
 */
export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private failures = 0;
  private openedAt: Date | undefined;
  private trialInFlight = false;

  constructor(
    readonly id: string,
    private readonly clock: Clock,
    private readonly settings: BreakerSettings,
    private readonly notify: BreakerListener,
  ) {}

  /**
   * Admits one request (with all its retries) or throws `model_unavailable`; moves an open breaker to half-open
   * after the cool-down. The permit must be settled: `succeed`, `fail` or `release` (only the first call counts).
   */
  admit(): BreakerPermit {
    if (this.state === 'open' && this.coolDownOver()) this.transition('half_open', 'cool-down over');
    if (this.state === 'closed') return this.permit(false);
    if (this.state === 'half_open' && !this.trialInFlight) {
      this.trialInFlight = true;
      return this.permit(true);
    }
    throw new ModelUnavailableError(
      this.id,
      'breaker_open',
      undefined,
      `The model ${this.id} is resting after repeated failures; it will be tried again shortly.`,
    );
  }

  private permit(trial: boolean): BreakerPermit {
    let settled = false;
    const once = (action: () => void) => () => {
      if (settled) return;
      settled = true;
      action();
    };
    return {
      trial,
      succeed: once(() => this.succeeded(trial)),
      fail: (reason: string) => once(() => this.failed(trial, reason))(),
      release: once(() => {
        if (trial) this.trialInFlight = false;
      }),
    };
  }

  private succeeded(trial: boolean): void {
    this.failures = 0;
    if (trial || this.state !== 'closed') this.trialInFlight = false;
    if (this.state !== 'closed') this.transition('closed', 'request succeeded');
  }

  /** A failed trial re-opens the breaker and frees its slot; other failures count towards the threshold. */
  private failed(trial: boolean, reason: string): void {
    this.failures += 1;
    if (trial) this.trialInFlight = false;
    const reopen = trial && this.state === 'half_open';
    if (reopen || (this.state === 'closed' && this.failures >= this.settings.failureThreshold)) {
      this.openedAt = this.clock.now();
      this.transition('open', reason);
    }
  }

  /** The current status. */
  status(): BreakerStatus {
    if (this.state === 'open' && this.coolDownOver()) this.transition('half_open', 'cool-down over');
    const retryAt = this.openedAt && this.state === 'open' ? new Date(this.openedAt.getTime() + this.settings.coolDownMs) : undefined;
    return { id: this.id, state: this.state, consecutiveFailures: this.failures, openedAt: this.openedAt, retryAt };
  }

  private coolDownOver(): boolean {
    return this.openedAt !== undefined && this.clock.now().getTime() - this.openedAt.getTime() >= this.settings.coolDownMs;
  }

  private transition(state: BreakerState, reason: string | undefined): void {
    const previous = this.state;
    this.state = state;
    this.notify({ id: this.id, state, previous, at: this.clock.now(), reason });
  }
}
