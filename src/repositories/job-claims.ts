import { sql, type Kysely, type QueryCreator } from 'kysely';
import { PreparedStatement } from '../db/prepared-statement.ts';
import type { Database } from '../db/schema.ts';

/** A claimed job, leased to one worker until `lockedUntil`. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  sessionId: string | null;
  retryCount: number;
  maxRetries: number;
  retryUntil: Date | null;
  runId: number;
  /** The job's queue (deliveries to one room share one). */
  queue: string | null;
  /** A pending job of the same queue was waiting behind this one when it was claimed (claim again once it ends). */
  hasSuccessor: boolean;
  /** No run of this job started before this one (none can have done part of its work). */
  firstRun: boolean;
}

/**
 * Claims up to `limit` due jobs for `workerId`: pending ones whose time has come, and running ones whose
 * lease expired (a crashed worker). A job in a queue is claimed only when no earlier job of that queue is
 * unfinished, so deliveries to one room keep their order.
 */
export async function claimDueJobs(
  db: Kysely<Database>,
  workerId: string,
  now: Date,
  leaseMs: number,
  limit: number,
  kinds?: string[],
  queue?: string,
): Promise<ClaimedJob[]> {
  const input: ClaimInput = { workerId, now, leaseMs, limit, kinds: kinds && kinds.length > 0 ? kinds : null, queue: queue ?? null, after: null };
  const { rows } = await claimStatement(input).execute(db, input);
  return rows.map(toClaimedJob);
}

/**
 * A claim of the next job of a finished job's queue, made by the statement that records the finish (one round trip
 * instead of two, and no poll between a room's deliveries).
 */
export interface SuccessorClaim {
  workerId: string;
  leaseMs: number;
  /** The kinds the worker has handlers for. */
  kinds: string[];
  /**
   * Called right before the statement is sent: whether it should claim (not once the worker is stopping: the job
   * would run after the stop). Work queued from then on may be missed by the claim.
   */
  sending(): boolean;
}

/**
 * What a successor claim binds, after the finished job of `queue`. Always of one shape (kinds, a queue, a finished job),
 * as its statement is prepared once: no kinds at all claims nothing, as it should.
 */
export function successorClaimInput(successor: SuccessorClaim, finished: { id: number; queue: string }, now: Date): ClaimInput {
  return {
    workerId: successor.workerId,
    now,
    leaseMs: successor.leaseMs,
    limit: 1,
    kinds: successor.kinds,
    queue: finished.queue,
    after: finished.id,
  };
}

/** A claimed row as the worker takes it. */
export function toClaimedJob(row: ClaimedRow): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    sessionId: row.session_id,
    retryCount: row.retry_count,
    maxRetries: row.max_retries,
    retryUntil: row.retry_until,
    runId: row.run_id,
    queue: row.queue,
    hasSuccessor: Boolean(row.has_successor),
    firstRun: Boolean(row.first_run),
  };
}

/** A row of a claim's result. */
export type ClaimedRow = Awaited<ReturnType<ReturnType<typeof claimQuery>['execute']>>[number];

/**
 * What a claim binds; `kinds` and `queue` are null when the claim takes any. `after`: a job of the queue that the same
 * statement finishes, so it neither holds the queue back nor is claimed itself.
 */
export interface ClaimInput {
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
  kinds: string[] | null;
  queue: string | null;
  after: number | null;
}

/** The claim's values in the order of its placeholders. */
export function claimParameters({ workerId, now, leaseMs, limit, kinds, queue, after }: ClaimInput): unknown[] {
  const lockedUntil = new Date(now.getTime() + leaseMs);
  const finished = after === null ? [] : [after];
  const filters = [...(kinds ? [kinds] : []), ...(queue ? [queue] : []), ...finished];
  return [now, now, ...finished, ...filters, limit, 'running', workerId, lockedUntil, now, workerId, now];
}

/** One prepared claim per shape (with or without a kinds filter, a queue). */
const CLAIMS = new Map<string, ReturnType<typeof claimPrepared>>();

function claimPrepared(key: string) {
  return new PreparedStatement(
    `claim due jobs (${key})`,
    (db: Kysely<Database>, input: ClaimInput) => claimQuery(db.withTables<FinishingTables>(), input),
    claimParameters,
  );
}

function claimStatement(input: ClaimInput) {
  const key = `${input.kinds ? 'kinds' : 'any kind'}, ${input.queue ? 'one queue' : 'any queue'}`;
  let statement = CLAIMS.get(key);
  if (!statement) CLAIMS.set(key, (statement = claimPrepared(key)));
  return statement;
}

/**
 * The tables a claim sees: the database's, and the common table expressions a statement that finishes a delivery
 * puts before its claim of the next job (see `MessagesRepository.markDelivered`). A plain claim has them in its type
 * only (`withTables`), so both statements share one claim.
 */
export type ClaimDatabase = Database & FinishingTables;

/** The common table expressions a finishing statement puts before its claim (each returns the rows it wrote). */
type FinishingTables = { delivered: { id: number }; finished: { id: number }; finished_run: { id: number } };

/**
 * Picks, leases and records the runs of due jobs, in one statement (see `claimDueJobs`). `db` may carry common table
 * expressions of its own (a statement that finishes a job and claims its successor); they come first.
 */
export function claimQuery(db: QueryCreator<ClaimDatabase>, input: ClaimInput) {
  const { workerId, now, leaseMs, limit } = input;
  // One statement (pick, lease, record the run): a worker polls often, and each round trip holds the connection.
  // Each part is built on its expression's own creator: one built on `db` would repeat db's expressions inside it.
  return db
    .with('picked', (creator) => dueJobs(creator, input).orderBy('job.run_at').orderBy('job.id').limit(limit).forUpdate().skipLocked())
    .with('claimed', (db) =>
      db
        .updateTable('jobs')
        .from('picked')
        .set({ status: 'running', locked_by: workerId, locked_until: new Date(now.getTime() + leaseMs), updated_at: now })
        .whereRef('jobs.id', '=', 'picked.id')
        .returning([
          'jobs.id',
          'jobs.kind',
          'jobs.payload',
          'jobs.session_id',
          'jobs.retry_count',
          'jobs.max_retries',
          'jobs.retry_until',
          'jobs.run_at',
          'jobs.queue',
        ]),
    )
    .with('runs', (db) =>
      db
        .insertInto('job_runs')
        .columns(['job_id', 'attempt', 'worker_id', 'started_at'])
        .expression((eb) =>
          eb
            .selectFrom('claimed')
            .select([
              'claimed.id',
              sql<number>`claimed.retry_count + 1`.as('attempt'),
              sql<string>`${workerId}::text`.as('worker_id'),
              sql<Date>`${now}::timestamptz`.as('started_at'),
            ]),
        )
        .returning(['job_runs.id', 'job_runs.job_id']),
    )
    .selectFrom('claimed')
    .innerJoin('runs', 'runs.job_id', 'claimed.id')
    .select([
      'claimed.id',
      'claimed.kind',
      'claimed.payload',
      'claimed.session_id',
      'claimed.retry_count',
      'claimed.max_retries',
      'claimed.retry_until',
      'runs.id as run_id',
      'claimed.queue',
      // Read in the same statement, so the worker knows whether this job's end unblocks another (see JobWorker).
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('jobs as later')
              .select(sql`1`.as('one'))
              .whereRef('later.queue', '=', 'claimed.queue')
              .whereRef('later.id', '>', 'claimed.id')
              .where('later.status', '=', PENDING)
              .where('later.deleted_at', 'is', null),
          )
          .as('has_successor'),
      // The statement's own run is not visible here (a data-modifying WITH is seen only through its RETURNING).
      (eb) =>
        eb
          .not(
            eb.exists(
              eb
                .selectFrom('job_runs as earlier_run')
                .select(sql`1`.as('one'))
                .whereRef('earlier_run.job_id', '=', 'claimed.id'),
            ),
          )
          .as('first_run'),
    ])
    .orderBy('claimed.run_at')
    .orderBy('claimed.id');
}

/**
 * The statuses a claim filters on, as literals: the partial indexes (`jobs_queue`, `jobs_running_locked_by`) are found
 * by their predicates, which a bound value cannot prove. Bound, Postgres planned the statement afresh at every run
 * (its generic plan, blind to the indexes, cost more), ~0.4 ms of the server's CPU a claim.
 */
const PENDING = sql.lit('pending');
const RUNNING = sql.lit('running');

/** The due jobs a claim may take (see `claimDueJobs`), not yet ordered or limited. */
function dueJobs(db: QueryCreator<ClaimDatabase>, { now, kinds, queue, after }: ClaimInput) {
  let due = db
    .selectFrom('jobs as job')
    .select(['job.id'])
    .where('job.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('job.status', '=', PENDING), eb('job.run_at', '<=', now)]),
        eb.and([eb('job.status', '=', RUNNING), eb('job.locked_until', '<', now)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('job.queue', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as earlier')
              .select(sql`1`.as('one'))
              .whereRef('earlier.queue', '=', 'job.queue')
              .whereRef('earlier.id', '<', 'job.id')
              .where('earlier.status', 'in', [PENDING, RUNNING])
              .$if(after !== null, (earlier) => earlier.where('earlier.id', '<>', after ?? 0))
              .where('earlier.deleted_at', 'is', null),
          ),
        ),
      ]),
    );
  // `= any(array)`: one placeholder however many kinds, so the statement's text never changes.
  if (kinds) due = due.where('job.kind', '=', sql<string>`any(${kinds})`);
  if (queue) due = due.where('job.queue', '=', queue);
  if (after !== null) due = due.where('job.id', '<>', after);
  return due;
}
