/** What a job worker is given: its identity, the jobs, its lanes and timing. */
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { TerminalFailureListener } from './job-types.ts';
import type { JobLane } from './worker-lanes.ts';
import type { WorkerInstanceOptions } from './worker-instance.ts';

/** Options of a job worker. */
export interface JobWorkerOptions {
  workerId: string;
  jobs: JobsRepository;
  clock: Clock;
  logger: Logger;
  /** How long a claim is leased; refreshed at a third of it while a job runs. */
  leaseMs?: number;
  /** How many jobs of the default lane (every kind `lanes` does not name) run at once. */
  concurrency?: number;
  /** Lanes of their own for some kinds, each with its slots: their jobs never wait for another lane's (see worker-lanes.ts). */
  lanes?: readonly JobLane[];
  /**
   * How often the idle loop looks for jobs nobody told it of: timers due later, other processes' jobs (real time,
   * default 1 s). Work stored to run now nudges it, and the jobs it retries or postpones wake it when due.
   */
  pollMs?: number;
  onTerminalFailure?: TerminalFailureListener;
  /** Heartbeat timing and process identity of this worker's instance row (defaults: 5 s, 20 s, this process). */
  instance?: Pick<WorkerInstanceOptions, 'heartbeatMs' | 'staleMs' | 'host' | 'pid' | 'isProcessAlive' | 'onOthersGone'>;
}
