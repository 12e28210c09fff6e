/**
 * A running job put back to pending (a retry, a postponement, a reclaim after its worker died) whose twin (same kind
 * and dedupe key) was queued while it ran is `superseded` instead: the twin does its work, and two pending twins would
 * break the pending-dedupe index. The statement would fail: a retry's job stayed running until its lease ran out, and
 * a reclaim failed whole, so a restarted worker claimed nothing, for any session (seen after kill -9 restarts).
 */
import { sql, type RawBuilder } from 'kysely';

/** Whether the `jobs` row being updated has a pending twin, or `also` holds (another reason it gives way). */
function givesWay(also?: RawBuilder<boolean>): RawBuilder<boolean> {
  const twinPending = sql<boolean>`exists (
    select 1 from jobs twin where twin.status = 'pending' and twin.kind = jobs.kind and twin.dedupe_key = jobs.dedupe_key
  )`;
  return sql<boolean>`(jobs.dedupe_key is not null and (${twinPending}${also ? sql` or ${also}` : sql``}))`;
}

/** The status of the `jobs` row going back to pending: `superseded` when it gives way to a twin (see above). */
export function pendingUnlessTwin(also?: RawBuilder<boolean>): RawBuilder<string> {
  return sql<string>`case when ${givesWay(also)} then 'superseded' else 'pending' end`;
}

/** Its `finished_at`: `now` when it gives way to a twin (it is over), else none. */
export function finishedIfTwin(now: Date, also?: RawBuilder<boolean>): RawBuilder<Date | null> {
  return sql<Date | null>`case when ${givesWay(also)} then ${now}::timestamptz else null end`;
}
