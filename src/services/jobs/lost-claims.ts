/**
 * Claims whose answer a dropped database connection lost. A claim is one statement: the server may commit it (the jobs
 * leased to this worker, their runs begun) and the connection drop before its reply arrives. The worker never learns of
 * those jobs, and nobody else may take them until their lease ends: minutes in which a room's deliveries, queued
 * behind one of them, stall. Seen in a Postgres restart: a delivery's end claimed the room's next delivery, lost the
 * reply, and the room's answers stayed half-written for the lease's five minutes.
 *
 * So the worker keeps the jobs it knows it holds, and after a claim that may have been lost, once no claim is in
 * flight (one in flight may hold jobs it does not know of yet), puts back every other job it holds.
 */
import type { Clock } from '../../core/clock.ts';
import { isDatabaseUnreachable } from '../../core/database-unreachable.ts';
import type { Logger } from '../../logging/logger.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';

/** What the ledger needs. */
export interface LostClaimsOptions {
  workerId: string;
  jobs: Pick<JobsRepository, 'releaseLostClaims'>;
  clock: Clock;
  logger: Logger;
}

/** One job's successor claims, as the ledger follows them (see `LostClaims.successorsOf`). */
export interface SuccessorClaims {
  /** Right before a claim is sent: false while a recovery is under way (the poll claims the successor then). */
  sending(): boolean;
  /** The job's handler returned (`next`: the successor its end claimed) or threw (`failed`). */
  answered(next: ClaimedJob | null, failed: boolean): void;
}

/** The jobs a worker knows it holds, and whether a claim of its may have been lost. */
export class LostClaims {
  private readonly held = new Set<number>();
  private claimsInFlight = 0;
  private suspected = false;
  /** A recovery under way: no claim may be sent meanwhile (its jobs, not yet known here, would be put back). */
  private recovering: Promise<unknown> | null = null;

  constructor(private readonly options: LostClaimsOptions) {}

  /** Runs a claim statement, noting the jobs it took; one that failed as the database went away may have committed. */
  async claim(statement: () => Promise<ClaimedJob[]>): Promise<ClaimedJob[]> {
    while (this.recovering) await this.recovering.catch(() => undefined);
    this.claimsInFlight += 1;
    try {
      const claimed = await statement();
      for (const job of claimed) this.held.add(job.id);
      return claimed;
    } catch (error) {
      if (isDatabaseUnreachable(error)) this.suspected = true;
      throw error;
    } finally {
      this.claimsInFlight -= 1;
    }
  }

  /**
   * Follows the successor claims of one job's end. A second claim sent for one job means the first one's answer was
   * lost; so may be that of a claim sent by a handler that then failed.
   */
  successorsOf(): SuccessorClaims {
    let sent = 0;
    return {
      sending: () => {
        if (this.recovering) return false;
        sent += 1;
        this.claimsInFlight += 1;
        if (sent > 1) this.suspected = true;
        return true;
      },
      answered: (next, failed) => {
        if (next) this.held.add(next.id);
        if (failed && sent > 0) this.suspected = true;
        this.claimsInFlight -= sent;
        sent = 0;
      },
    };
  }

  /** A job this worker ran was settled (or given up at a stop): it no longer holds it. */
  ended(job: ClaimedJob): void {
    this.held.delete(job.id);
  }

  /**
   * After a claim that may have been lost, and with no claim in flight, puts back to pending the jobs this worker
   * holds but does not know of. Returns how many; throws (and tries again next time) when the database is away.
   */
  async recover(): Promise<number> {
    if (!this.suspected || this.claimsInFlight > 0 || this.recovering) return 0;
    const release = this.options.jobs.releaseLostClaims(this.options.workerId, [...this.held], this.options.clock.now());
    this.recovering = release;
    const released = await release.finally(() => (this.recovering = null));
    this.suspected = false;
    if (released.length > 0)
      this.options.logger.warn({ jobs: released }, 'put back jobs whose claim a dropped database connection lost: they run now, not when their lease ends');
    return released.length;
  }
}
