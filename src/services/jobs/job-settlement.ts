/** What a job's outcome does to its row: done, postponed, retried later (with backoff) or failed for good. */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import { whenReachable } from '../../core/database-unreachable.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';
import { backoffDelayMs } from './backoff.ts';
import type { JobOutcome, TerminalFailureListener } from './job-types.ts';

/** What settling a job needs: the repository, the clock, where to log, and whom to tell of a job given up. */
export interface JobSettlementDependencies {
  jobs: Pick<JobsRepository, 'complete' | 'postpone' | 'fail'>;
  clock: Clock;
  logger: Logger;
  onTerminalFailure?: TerminalFailureListener | undefined;
  /** Told when a postponed or retried job falls due, so an idle worker wakes for it. */
  expect: (runAt: Date) => void;
}

/**
 * Records a job's outcome, waiting out an unreachable database (trying again every few seconds) until `signal` stops
 * the worker: a job whose outcome was not recorded would run again when its lease ends (minutes later), a delivery
 * posted twice. On a stop it gives up; the lease decides then.
 */
export async function settleJobWhenReachable(
  dependencies: JobSettlementDependencies,
  job: ClaimedJob,
  outcome: JobOutcome,
  signal: AbortSignal,
): Promise<void> {
  // No patience limit: a worker that stops gives up through `signal`.
  await whenReachable(() => settleJob(dependencies, job, outcome), { clock: dependencies.clock, signal, patienceMs: Number.POSITIVE_INFINITY });
}

/** Records a job's outcome (a `settled` job recorded its own, with its delivery). */
export async function settleJob(dependencies: JobSettlementDependencies, job: ClaimedJob, outcome: JobOutcome): Promise<void> {
  if (outcome.status === 'settled') return;
  const { jobs, clock, logger } = dependencies;
  const now = clock.now();
  if (outcome.status === 'done') return jobs.complete(job, now);
  if (outcome.status === 'postpone') {
    const runAt = new Date(now.getTime() + outcome.afterMs);
    await jobs.postpone(job, runAt, now);
    return dependencies.expect(runAt);
  }
  const retryAt = outcome.status === 'retry' ? new Date(now.getTime() + (outcome.afterMs ?? backoffDelayMs(job.retryCount + 1))) : null;
  const terminal = await jobs.fail(job, outcome.error, retryAt, now);
  if (!terminal) {
    if (retryAt) dependencies.expect(retryAt);
    logger.warn({ job: job.id, kind: job.kind, attempt: job.retryCount + 1, error: outcome.error }, 'job failed, will retry');
    return;
  }
  logger.error({ job: job.id, kind: job.kind, error: outcome.error }, 'job failed for good');
  await dependencies.onTerminalFailure?.(job, outcome.error);
}
