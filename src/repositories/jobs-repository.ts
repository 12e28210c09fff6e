import { sql, type Kysely } from 'kysely';
import { toJson, type Database, type JobRow } from '../db/schema.ts';
import { claimDueJobs, type ClaimedJob } from './job-claims.ts';
import * as endings from './job-endings.ts';
import * as instances from './job-instances.ts';
import type { WorkerInstance } from './job-instances.ts';

export type { ClaimedJob, SuccessorClaim } from './job-claims.ts';
export type { WorkerInstance } from './job-instances.ts';

/** A job to enqueue. `dedupeKey` makes enqueueing idempotent while one is pending; `queue` orders jobs. */
export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  dedupeKey?: string | null;
  queue?: string | null;
  sessionId?: string | null;
  maxRetries?: number;
  /** Until this time a failure is retried whatever `maxRetries` says (document jobs ride out long outages). */
  retryUntil?: Date | null;
}

const DEFAULT_MAX_RETRIES = 5;

/**
 * The predicate of the partial unique index `jobs_pending_dedupe`, as a literal: an `ON CONFLICT ... WHERE` names its
 * index by this predicate, and a bound value would not find it once Postgres keeps a generic plan for the statement.
 */
const PENDING_DEDUPE_INDEX = sql<boolean>`status = 'pending'`;

/** The row of a new, pending job. */
function jobRow(job: NewJob, now: Date) {
  return {
    kind: job.kind,
    dedupe_key: job.dedupeKey ?? null,
    queue: job.queue ?? null,
    session_id: job.sessionId ?? null,
    payload: toJson(job.payload),
    status: 'pending',
    run_at: job.runAt,
    max_retries: job.maxRetries ?? DEFAULT_MAX_RETRIES,
    retry_until: job.retryUntil ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** The outbox and timers: jobs and their runs. */
export class JobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a job unless one with the same kind and dedupe key is pending. Returns its id, or null if deduplicated. */
  async enqueue(job: NewJob, now: Date): Promise<number | null> {
    const row = await this.db
      .insertInto('jobs')
      .values(jobRow(job, now))
      .onConflict((conflict) => conflict.columns(['kind', 'dedupe_key']).where(PENDING_DEDUPE_INDEX).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /**
   * As `enqueue`, answering when the pending job is due: this one's `runAt` when it was inserted, the one already
   * pending when it was deduplicated (so a caller learns of a job another call or process queued); null when a
   * concurrent insert not yet visible here won the race. One statement.
   */
  async enqueueOnce(job: NewJob & { dedupeKey: string }, now: Date): Promise<Date | null> {
    const row = await this.db
      .with('inserted', (creator) =>
        creator
          .insertInto('jobs')
          .values(jobRow(job, now))
          .onConflict((conflict) => conflict.columns(['kind', 'dedupe_key']).where(PENDING_DEDUPE_INDEX).doNothing())
          .returning('run_at'),
      )
      .selectFrom('inserted')
      .select('inserted.run_at')
      // The statement's snapshot predates the insert: this finds only a job that was pending before it.
      .unionAll((eb) =>
        eb
          .selectFrom('jobs')
          .select('jobs.run_at')
          .where('jobs.kind', '=', job.kind)
          .where('jobs.dedupe_key', '=', job.dedupeKey)
          .where('jobs.status', '=', 'pending'),
      )
      .executeTakeFirst();
    return row ? new Date(row.run_at) : null;
  }

  /**
   * `enqueue`, or when one is pending already, `debounce` it to the new job's `runAt` (never beyond `maxDelayMs`
   * after it was first queued): atomic, in one statement instead of two. Answers when the pending job is now due.
   */
  async enqueueOrDebounce(job: NewJob & { dedupeKey: string }, maxDelayMs: number, now: Date): Promise<Date> {
    const row = await this.db
      .insertInto('jobs')
      .values(jobRow(job, now))
      .onConflict((conflict) =>
        conflict
          .columns(['kind', 'dedupe_key'])
          .where(PENDING_DEDUPE_INDEX)
          .doUpdateSet({ run_at: sql<Date>`least(excluded.run_at, jobs.created_at + ${maxDelayMs} * interval '1 millisecond')`, updated_at: now }),
      )
      .returning('run_at')
      .executeTakeFirstOrThrow();
    return new Date(row.run_at);
  }

  /**
   * Moves a pending deduplicated job earlier (e.g. an urgent Scribe pass); never later. `skipRetrying` leaves a job
   * waiting out a failure's back-off where it is (a shorter interval is no reason to retry a failing model sooner).
   */
  async expedite(kind: string, dedupeKey: string, runAt: Date, now: Date, options: { skipRetrying?: boolean } = {}): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ run_at: runAt, updated_at: now })
      .where('kind', '=', kind)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'pending')
      .where('run_at', '>', runAt)
      .$if(options.skipRetrying === true, (query) => query.where('retry_count', '=', 0))
      .execute();
  }

  /**
   * A trailing debounce: moves a pending deduplicated job to `runAt` (earlier or later), but never beyond
   * `maxDelayMs` after it was first queued, so a steady stream of triggers cannot postpone it for ever.
   */
  async debounce(kind: string, dedupeKey: string, runAt: Date, maxDelayMs: number, now: Date): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ run_at: sql<Date>`least(${runAt}::timestamptz, created_at + ${maxDelayMs} * interval '1 millisecond')`, updated_at: now })
      .where('kind', '=', kind)
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Claims up to `limit` due jobs for `workerId` (see `claimDueJobs`): due pending ones and expired leases, a queued
   * job only when no earlier job of its queue is unfinished.
   */
  claimDue(workerId: string, now: Date, leaseMs: number, limit: number, kinds?: string[], queue?: string): Promise<ClaimedJob[]> {
    return claimDueJobs(this.db, workerId, now, leaseMs, limit, kinds, queue);
  }

  /** Extends a running job's lease (long work refreshes it well before it expires). */
  async extendLease(jobId: number, workerId: string, lockedUntil: Date, now: Date): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ locked_until: lockedUntil, updated_at: now })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .execute();
  }

  /** Marks a job done. */
  complete(job: ClaimedJob, now: Date): Promise<void> {
    return endings.completeJob(this.db, job, now);
  }

  /**
   * Records a failure: reschedules at `retryAt`, or fails it for good when retries are used up (the count, or
   * the job's `retryUntil` deadline when it has one). Returns true when terminal.
   */
  fail(job: ClaimedJob, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
    return endings.failJob(this.db, job, error, retryAt, now);
  }

  /** Puts a job back to pending at `runAt` without counting a failure (e.g. a rate limit asked us to wait). */
  postpone(job: ClaimedJob, runAt: Date, now: Date): Promise<void> {
    return endings.postponeJob(this.db, job, runAt, now);
  }

  /** Registers (or re-registers) a worker instance with a fresh heartbeat. */
  registerInstance(instance: WorkerInstance, now: Date): Promise<void> {
    return instances.registerInstance(this.db, instance, now);
  }

  /** Refreshes an instance's heartbeat and names the others stopped since `since` (see job-instances.ts). */
  heartbeat(instanceId: string, now: Date, since: Date): Promise<instances.HeartbeatAnswer> {
    return instances.heartbeat(this.db, instanceId, now, since);
  }

  /** Marks an instance stopped (a clean shutdown). */
  stopInstance(instanceId: string, now: Date): Promise<void> {
    return instances.stopInstance(this.db, instanceId, now);
  }

  /** Instances still counted as running (not stopped), for a starting worker to check which are gone. */
  liveInstances(): Promise<(WorkerInstance & { heartbeatAt: Date })[]> {
    return instances.liveInstances(this.db);
  }

  /** Declares gone instances stopped, puts their running jobs back to pending and closes their open traces (see `reclaimAbandoned` there). */
  reclaimAbandoned(selfId: string, now: Date, staleBefore: Date, goneIds: string[] = [], options: instances.ReclaimOptions = {}): Promise<instances.Reclaimed> {
    return instances.reclaimAbandoned(this.db, selfId, now, staleBefore, goneIds, options);
  }

  /** Puts back to pending the jobs `workerId` holds but does not know of (claims whose answer was lost); their ids. */
  releaseLostClaims(workerId: string, knownIds: readonly number[], now: Date): Promise<number[]> {
    return instances.releaseLostClaims(this.db, workerId, knownIds, now);
  }

  /** Cancels the pending jobs of a session (optionally of some kinds), e.g. when it ends. */
  async cancelPending(sessionId: string, kinds: string[] | null, now: Date): Promise<number> {
    let query = this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', finished_at: now, updated_at: now })
      .where('session_id', '=', sessionId)
      .where('status', '=', 'pending');
    if (kinds) query = query.where('kind', 'in', kinds);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The earliest time a pending job is due, for a worker to sleep until. */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.next ? new Date(row.next as unknown as string) : null;
  }

  /** Jobs of a session, newest first (console and tests). */
  async listForSession(sessionId: string): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('session_id', '=', sessionId).orderBy('id', 'desc').execute();
  }

  /** Jobs by kind and status (console, tests). */
  async countByStatus(kind?: string): Promise<Record<string, number>> {
    let query = this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status');
    if (kind) query = query.where('kind', '=', kind);
    const rows = await query.execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }
}
