import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { closeAbandonedTraces } from './abandoned-traces.ts';
import { finishedIfTwin, pendingUnlessTwin } from './job-twins.ts';

/** A job worker process as it registers itself (host and pid tell a restart on the same machine it is gone). */
export interface WorkerInstance {
  id: string;
  host: string;
  pid: number;
}

/** Registers (or re-registers) a worker instance with a fresh heartbeat. */
export async function registerInstance(db: Kysely<Database>, instance: WorkerInstance, now: Date): Promise<void> {
  await db
    .insertInto('worker_instances')
    .values({ id: instance.id, host: instance.host, pid: instance.pid, started_at: now, heartbeat_at: now, stopped_at: null })
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ heartbeat_at: now, stopped_at: null }))
    .execute();
}

/** Refreshes an instance's heartbeat; false when it was declared gone meanwhile (its jobs went to others). */
export async function heartbeat(db: Kysely<Database>, instanceId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('worker_instances')
    .set({ heartbeat_at: now })
    .where('id', '=', instanceId)
    .where('stopped_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks an instance stopped (a clean shutdown). */
export async function stopInstance(db: Kysely<Database>, instanceId: string, now: Date): Promise<void> {
  await db.updateTable('worker_instances').set({ stopped_at: now }).where('id', '=', instanceId).where('stopped_at', 'is', null).execute();
}

/** Instances still counted as running (not stopped), for a starting worker to check which are gone. */
export async function liveInstances(db: Kysely<Database>): Promise<(WorkerInstance & { heartbeatAt: Date })[]> {
  const rows = await db.selectFrom('worker_instances').select(['id', 'host', 'pid', 'heartbeat_at']).where('stopped_at', 'is', null).execute();
  return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, heartbeatAt: row.heartbeat_at }));
}

/** What a reclaim took back from instances that are gone. */
export interface Reclaimed {
  /** Jobs put back to pending. */
  jobs: number;
  /** Traces they left open, now closed as cut short. */
  traces: number;
}

/** How far a reclaim looks. */
export interface ReclaimOptions {
  /** Closes the traces left open by every instance ever declared gone, not only by those declared now (at start). */
  everyGoneInstance?: boolean;
}

/**
 * Declares gone the instances in `goneIds` and every other one whose heartbeat is older than `staleBefore`
 * (never `selfId`), puts the jobs they were running back to pending, due now (or superseded by a twin, see
 * job-twins.ts), and closes the traces they left open. A crash is not the job's failure, so the retry count stays.
 */
export async function reclaimAbandoned(
  db: Kysely<Database>,
  selfId: string,
  now: Date,
  staleBefore: Date,
  goneIds: string[] = [],
  options: ReclaimOptions = {},
): Promise<Reclaimed> {
  return db.transaction().execute(async (transaction) => {
    const declared = await transaction
      .updateTable('worker_instances')
      .set({ stopped_at: now })
      .where('id', '!=', selfId)
      .where('stopped_at', 'is', null)
      .where((eb) => eb.or([eb('heartbeat_at', '<', staleBefore), ...(goneIds.length > 0 ? [eb('id', 'in', goneIds)] : [])]))
      .returning('id')
      .execute();
    const stopped = transaction.selectFrom('worker_instances').select('id').where('stopped_at', 'is not', null).where('id', '!=', selfId);
    // Two runs of one deduplicated job may both be left running: the earlier one comes back, the later gives way to it.
    const earlierRunning = sql<boolean>`exists (
      select 1 from jobs earlier where earlier.status = 'running' and earlier.locked_by in ${stopped}
        and earlier.kind = jobs.kind and earlier.dedupe_key = jobs.dedupe_key and earlier.id < jobs.id
    )`;
    const jobs = await transaction
      .updateTable('jobs')
      .set({
        status: pendingUnlessTwin(earlierRunning),
        finished_at: finishedIfTwin(now, earlierRunning),
        run_at: now,
        locked_by: null,
        locked_until: null,
        updated_at: now,
      })
      .where('status', '=', 'running')
      .where('locked_by', 'in', stopped)
      .returning('id')
      .execute();
    if (jobs.length > 0) {
      await transaction
        .updateTable('job_runs')
        .set({ finished_at: now, outcome: 'abandoned', error: 'the worker running it stopped' })
        .where(
          'job_id',
          'in',
          jobs.map((job) => job.id),
        )
        .where('finished_at', 'is', null)
        .execute();
    }
    // Traces are closed once, when their instance is declared gone (a clean stop ends its own): not on every heartbeat.
    const traces = declared.length > 0 || options.everyGoneInstance ? await closeAbandonedTraces(transaction) : 0;
    return { jobs: jobs.length, traces };
  });
}
