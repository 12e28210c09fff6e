import type { ClaimedJob, SuccessorClaim } from '../../repositories/jobs-repository.ts';

/** What a handler says about a job it ran. Throwing counts as `retry` with exponential backoff. */
export type JobOutcome =
  | { status: 'done' }
  /**
   * Done, and already recorded so by the handler, in the statement that stored its result (nothing left to write);
   * `next`: the job of the same queue that statement claimed (see `SuccessorClaim`), for the worker to run now.
   */
  | { status: 'settled'; next?: ClaimedJob | null }
  /** Try again later; `afterMs` overrides the backoff (e.g. a Retry-After). Counts toward max retries. */
  | { status: 'retry'; error: string; afterMs?: number }
  /** Not now, and not a failure (e.g. a local rate limiter said wait). */
  | { status: 'postpone'; afterMs: number }
  /** Give up for good. */
  | { status: 'failed'; error: string };

/**
 * Runs one kind of job. `successor`: for a queued job while the worker runs, the claim its finishing statement may make
 * of the next job of its queue (answered as `settled` with `next`); a handler may ignore it.
 */
export type JobHandler = (job: ClaimedJob, signal: AbortSignal, successor?: SuccessorClaim | null) => Promise<JobOutcome>;

/** Called once when a job fails for good (notifications: log + ntfy). */
export type TerminalFailureListener = (job: ClaimedJob, error: string) => Promise<void> | void;

/** Where a module registers the handlers of the job kinds it owns (the job worker). */
export interface JobRegistry {
  register(kind: string, handler: JobHandler): void;
}
