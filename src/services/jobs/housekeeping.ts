import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { MaintenanceRepository } from '../../repositories/maintenance-repository.ts';
import type { TracesRepository } from '../../repositories/traces-repository.ts';
import type { JobOutcome, JobRegistry } from './job-types.ts';

/** The job that keeps the database lean; one is pending at a time, whichever process runs it. */
export const HOUSEKEEPING_JOB = 'housekeeping';

/** How often housekeeping runs, how long finished jobs are kept, and how many go per run. */
export interface HousekeepingOptions {
  /**
   * Default one minute. A claim reads every dead index entry its jobs left since the last vacuum: on PGlite after 30,000
   * jobs an empty claim took 0.73 ms instead of 0.13 (scratch script), and a busy bot runs that many in minutes. A
   * vacuum of what changed in a minute is cheap (75 ms after 30,000 jobs, far less after a minute's).
   */
  intervalMs?: number;
  /** Done jobs are kept this long (the console and logs may still point at them). Default one day. */
  keepFinishedJobsMs?: number;
  /** Most jobs deleted per run, so one run never holds the database long. Default 5000. */
  batch?: number;
  /** Traces (with their spans) older than this are deleted, up to `traceBatch` a run; 0 keeps them. Default 30 days. */
  keepTracesMs?: number;
  /** Default 500. */
  traceBatch?: number;
  /** Claims of people's messages older than this go, up to `batch` a run, and processes stopped as long ago with them. Default 30 days. */
  keepStoppedProcessesMs?: number;
  /** Paused runs no approval can take any more go this long after their last change, up to `batch` a run. Default one day. */
  keepSpentRunsMs?: number;
}

const DAY_MS = 24 * 60 * 60_000;
const DEFAULTS: Required<HousekeepingOptions> = {
  intervalMs: 60_000,
  keepFinishedJobsMs: DAY_MS,
  batch: 5_000,
  keepTracesMs: 30 * DAY_MS,
  traceBatch: 500,
  keepStoppedProcessesMs: 30 * DAY_MS,
  keepSpentRunsMs: DAY_MS,
};

/** What housekeeping needs. */
export interface HousekeepingDependencies {
  jobs: Pick<JobsRepository, 'enqueueOnce'>;
  maintenance: Pick<MaintenanceRepository, 'deleteFinishedJobs' | 'deleteStoppedProcesses' | 'deleteSpentRunStates' | 'vacuum'>;
  traces: Pick<TracesRepository, 'deleteOlderThan'>;
  /** Checkpoints embedded PGlite when due (absent: nothing to checkpoint). */
  checkpoints?: { checkpointIfDue(): Promise<unknown> };
  /** Removes the half-written answers of processes found dead since the last run (their heartbeat went stale). */
  leftPreviews?: { sweep(): Promise<unknown> };
  clock: Clock;
  logger: Logger;
  options?: HousekeepingOptions;
}

/**
 * Deletes old finished jobs, old traces, spent paused runs and old message claims with long-stopped processes and,
 * on embedded PGlite, vacuums the tables that change all day and checkpoints when due (see PgliteCheckpoints). Without
 * it a bot that runs for weeks keeps every job and every span it ever had, and on PGlite every claim reads more dead
 * index entries each day.
 */
export class Housekeeping {
  private readonly options: Required<HousekeepingOptions>;

  constructor(private readonly dependencies: HousekeepingDependencies) {
    this.options = { ...DEFAULTS, ...dependencies.options };
  }

  /** Registers the housekeeping job's handler. */
  registerJobs(registry: JobRegistry): void {
    registry.register(HOUSEKEEPING_JOB, () => this.run());
  }

  /** Queues the next run one interval from now, unless one is pending already (at every start: idempotent). */
  async schedule(): Promise<void> {
    const now = this.dependencies.clock.now();
    const runAt = new Date(now.getTime() + this.options.intervalMs);
    await this.dependencies.jobs.enqueueOnce({ kind: HOUSEKEEPING_JOB, payload: {}, runAt, dedupeKey: HOUSEKEEPING_JOB, maxRetries: 3 }, now);
  }

  /** One run: the next run queued, old jobs and traces deleted, the churning tables vacuumed. */
  async run(): Promise<JobOutcome> {
    const { maintenance, traces, clock, logger } = this.dependencies;
    // Queued first: a run that fails is retried, and the one after it is pending whatever happens here.
    await this.schedule();
    const now = clock.now().getTime();
    const deleted = await maintenance.deleteFinishedJobs(new Date(now - this.options.keepFinishedJobsMs), this.options.batch);
    const { keepTracesMs, traceBatch } = this.options;
    const deletedTraces = keepTracesMs > 0 ? await traces.deleteOlderThan(new Date(now - keepTracesMs), traceBatch) : 0;
    const stopped = await maintenance.deleteStoppedProcesses(new Date(now - this.options.keepStoppedProcessesMs), this.options.batch);
    const deletedRuns = await maintenance.deleteSpentRunStates(new Date(now - this.options.keepSpentRunsMs), this.options.batch);
    await this.dependencies.leftPreviews?.sweep().catch((error: unknown) => logger.warn({ err: error }, 'could not look for left previews'));
    const vacuumed = await maintenance.vacuum();
    // After the vacuum, which writes log of its own. A failed checkpoint is tried again at the next run.
    await this.dependencies.checkpoints
      ?.checkpointIfDue()
      .catch((error: unknown) => logger.warn({ err: error }, 'could not checkpoint the embedded database; the next housekeeping tries again'));
    logger.debug(
      { deletedJobs: deleted, deletedTraces, deletedClaims: stopped.claims, deletedProcesses: stopped.processes, deletedRuns, vacuumed },
      'housekeeping done',
    );
    return { status: 'done' };
  }
}
