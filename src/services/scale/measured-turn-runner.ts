/** A TurnRunner that records each turn's latency and each model failure for `/metrics`. */
import type { Clock } from '../../core/clock.ts';
import type { TurnOutcome } from '../coordinator/turn-outcome.ts';
import { TurnRunner } from '../coordinator/turn-runner.ts';
import type { TurnRequest, TurnRunnerOptions } from '../coordinator/turn-request.ts';
import type { Counter, Histogram } from './metrics-registry.ts';

/** Where a turn's figures go. */
export interface TurnMetrics {
  clock: Clock;
  /** Seconds per participant turn, by outcome. */
  latency: Histogram;
  /** Turns whose model failed (after its retries), by endpoint host and model. */
  modelErrors: Counter;
}

/** The endpoint of a participant as a label: its host only (a base URL may carry credentials or a path). */
export function endpointLabel(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Measures every turn it runs; behaves exactly like the TurnRunner otherwise. */
export class MeasuredTurnRunner extends TurnRunner {
  constructor(
    options: TurnRunnerOptions,
    private readonly metrics: TurnMetrics,
  ) {
    super(options);
  }

  /** Runs one participant's turn and records its latency and, when its model failed, the error. */
  override async run(request: TurnRequest): Promise<TurnOutcome> {
    const { participant } = request;
    const started = this.metrics.clock.now().getTime();
    const outcome = await super.run(request);
    this.metrics.latency.observe({ outcome: outcome.status }, (this.metrics.clock.now().getTime() - started) / 1000);
    if (outcome.status === 'failed') this.metrics.modelErrors.inc({ endpoint: endpointLabel(participant.baseUrl), model: participant.model });
    return outcome;
  }
}
