import type { ClaimedJob } from '../../repositories/jobs-repository.ts';

/** What a handler says about a job it ran. Throwing counts as `retry` with exponential backoff. */
export type JobOutcome =
  | { status: 'done' }
  /** Done, and already recorded so by the handler, in the statement that stored its result (nothing left to write). */
  | { status: 'settled' }
  /** Try again later; `afterMs` overrides the backoff (e.g. a Retry-After). Counts toward max retries. */
  | { status: 'retry'; error: string; afterMs?: number }
  /** Not now, and not a failure (e.g. a local rate limiter said wait). */
  | { status: 'postpone'; afterMs: number }
  /** Give up for good. */
  | { status: 'failed'; error: string };

/** Runs one kind of job. */
export type JobHandler = (job: ClaimedJob, signal: AbortSignal) => Promise<JobOutcome>;

/** Called once when a job fails for good (notifications: log + ntfy). */
export type TerminalFailureListener = (job: ClaimedJob, error: string) => Promise<void> | void;

/** Where a module registers the handlers of the job kinds it owns (the job worker). */
export interface JobRegistry {
  register(kind: string, handler: (job: ClaimedJob) => Promise<JobOutcome>): void;
}
