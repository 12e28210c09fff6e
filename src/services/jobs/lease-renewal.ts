import type { Clock } from '../../core/clock.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';

/** What renewing a running job's lease needs. */
export interface LeaseRenewalOptions {
  workerId: string;
  jobs: Pick<JobsRepository, 'extendLease'>;
  clock: Clock;
  leaseMs: number;
}

/**
 * Renews a running job's lease at a third of its length (in real time: a job runs as long as its handler takes), so a
 * long job is not taken over by another worker while this one is alive. A failed renewal waits for the next.
 */
export function renewLeaseWhileRunning(options: LeaseRenewalOptions, job: Pick<ClaimedJob, 'id'>): { stop(): void } {
  const { workerId, jobs, clock, leaseMs } = options;
  const timer = setInterval(
    () => {
      const now = clock.now();
      void jobs.extendLease(job.id, workerId, new Date(now.getTime() + leaseMs), now).catch(() => undefined);
    },
    Math.max(1000, leaseMs / 3),
  );
  return { stop: () => clearInterval(timer) };
}
