import type { Clock } from '../../services/clock.ts';
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

/** Listens to breaker changes. */
export type BreakerListener = (change: BreakerChange) => void;

/** Breaker tuning. */
export interface BreakerSettings {
  failureThreshold: number;
  coolDownMs: number;
}

/** Opens after 3 consecutive failed requests and stays open for a minute. */
export const DEFAULT_BREAKER: BreakerSettings = { failureThreshold: 3, coolDownMs: 60_000 };

/** A per-model circuit breaker driven by an injected clock. */
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

  /** Admits a request or throws `model_unavailable`; moves an open breaker to half-open after the cool-down. */
  admit(): void {
    if (this.state === 'open' && this.coolDownOver()) this.transition('half_open', 'cool-down over');
    if (this.state === 'closed') return;
    if (this.state === 'half_open' && !this.trialInFlight) {
      this.trialInFlight = true;
      return;
    }
    throw new ModelUnavailableError(
      this.id,
      'breaker_open',
      undefined,
      `The model ${this.id} is resting after repeated failures; it will be tried again shortly.`,
    );
  }

  /** Records a successful request: closes the breaker. */
  succeed(): void {
    this.failures = 0;
    this.trialInFlight = false;
    if (this.state !== 'closed') this.transition('closed', 'request succeeded');
  }

  /** Records a failed request (after its retries); opens the breaker at the threshold or on a failed trial. */
  fail(reason: string): void {
    this.failures += 1;
    const trialFailed = this.state === 'half_open';
    this.trialInFlight = false;
    if (trialFailed || (this.state === 'closed' && this.failures >= this.settings.failureThreshold)) {
      this.openedAt = this.clock.now();
      this.transition('open', reason);
    }
  }

  /** Releases a half-open trial that ended without a verdict (e.g. aborted). */
  release(): void {
    this.trialInFlight = false;
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
