import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sendNotice } from './notices.ts';

/** The channel on which a process calls the owner of a session to look at it now (the payload: the session id). */
export const SESSION_OWNER_CHANNEL = 'brainstorm_session_owner';

/** A person's message found by an owner polling its sessions. */
export interface HumanMessageRef {
  id: number;
  sessionId: string;
}

/** What one owner's pass reads (and the kick flags it clears) in a single statement. */
export interface OwnerPass {
  /** The status of each of the owner's sessions that still exists. */
  statuses: Map<string, string>;
  /** Sessions whose rounds another process asked the owner to start (`!continue` handled there); the flags are cleared. */
  kicks: string[];
  /** People's messages in the owner's sessions stored after the given id, oldest first. */
  humanMessages: HumanMessageRef[];
  /** Active sessions nobody holds, oldest first. */
  orphans: string[];
}

/** What an owner's pass asks about. */
export interface OwnerPassQuery {
  ownerId: string;
  /** The sessions it holds. */
  sessionIds: string[];
  /** People's messages at or below this id were seen. */
  afterId: number;
  /** Messages above `afterId` it was handed already: left out, so they never crowd out the ones it has not seen. */
  seenIds: number[];
  now: Date;
  /** Orphans to return at most. */
  orphanLimit: number;
}

/** One row of the owner's pass: what it is, its session, and a status, a message id or an order. */
interface OwnerPassRow {
  kind: 'status' | 'kick' | 'human' | 'orphan';
  session_id: string;
  status: string | null;
  ordinal: string | number | null;
}

/**
 * Active sessions nobody holds (no lease, an expired one, or one whose owner is gone), oldest first, numbered in that
 * order (`ordinal`): read alone at start-up and inside an owner's pass.
 */
function orphanSessions(now: Date, limit: number, owner: { ownerId: string; sessionIds: string[] } | null = null) {
  // A lease the owner holds but does not know of: its acquire committed and the answer was lost (a dropped connection).
  const unknownToOwner = owner ? sql`OR (lease.owner_id = ${owner.ownerId} AND NOT (session.id = any(${owner.sessionIds}::text[])))` : sql``;
  return sql`
    SELECT session.id, row_number() OVER (ORDER BY session.updated_at) AS ordinal
    FROM sessions AS session LEFT JOIN session_leases AS lease ON lease.session_id = session.id
    WHERE session.status = 'active' AND session.deleted_at IS NULL
      AND (lease.session_id IS NULL OR lease.lease_until < ${now}
        OR lease.owner_id IN (SELECT id FROM worker_instances WHERE stopped_at IS NOT NULL) ${unknownToOwner})
    ORDER BY session.updated_at LIMIT ${limit}
  `;
}

/** Which worker instance runs each live session's turns: leases that expire unless renewed. */
export class SessionLeasesRepository {
  /** `pollDb` runs the owner's pass (see DatabaseHandle.background): nobody waits on it, so it yields to turns. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pollDb: Kysely<Database> = db,
  ) {}

  /**
   * Takes (or extends) the lease of a session for `ownerId` when it is free: no lease, an expired one, or one
   * whose owner instance is stopped. Atomic, so two processes never both win. True when `ownerId` holds it.
   */
  async acquire(sessionId: string, ownerId: string, now: Date, until: Date): Promise<boolean> {
    const result = await sql<{ session_id: string }>`
      INSERT INTO session_leases (session_id, owner_id, lease_until, acquired_at, kick_requested)
      VALUES (${sessionId}, ${ownerId}, ${until}, ${now}, false)
      ON CONFLICT (session_id) DO UPDATE SET
        owner_id = excluded.owner_id,
        lease_until = excluded.lease_until,
        acquired_at = CASE WHEN session_leases.owner_id = excluded.owner_id THEN session_leases.acquired_at ELSE excluded.acquired_at END,
        kick_requested = CASE WHEN session_leases.owner_id = excluded.owner_id THEN session_leases.kick_requested ELSE false END
      WHERE session_leases.owner_id = excluded.owner_id
        OR session_leases.lease_until < excluded.acquired_at
        OR session_leases.owner_id IN (SELECT id FROM worker_instances WHERE stopped_at IS NOT NULL)
      RETURNING session_id
    `.execute(this.db);
    return result.rows.length > 0;
  }

  /**
   * Extends the leases `ownerId` still holds among `sessionIds`; returns those it still holds. `= any(array)`, not an
   * IN list: one text however many sessions, so renewals never fill the named-statement cache with a text per count.
   */
  async renew(ownerId: string, sessionIds: string[], until: Date): Promise<string[]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.db
      .updateTable('session_leases')
      .set({ lease_until: until })
      .where('owner_id', '=', ownerId)
      .where('session_id', '=', sql<string>`any(${sessionIds}::text[])`)
      .returning('session_id')
      .execute();
    return rows.map((row) => row.session_id);
  }

  /** Gives up leases of `ownerId` (all of them when `sessionIds` is null): another process may take them at once. */
  async release(ownerId: string, sessionIds: string[] | null): Promise<void> {
    if (sessionIds && sessionIds.length === 0) return;
    let query = this.db.deleteFrom('session_leases').where('owner_id', '=', ownerId);
    if (sessionIds) query = query.where('session_id', 'in', sessionIds);
    await query.execute();
  }

  /** Asks the owner of a session to start AI rounds (a `!continue` handled elsewhere). False when nobody holds it. */
  async requestKick(sessionId: string): Promise<boolean> {
    const result = await this.db.updateTable('session_leases').set({ kick_requested: true }).where('session_id', '=', sessionId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Calls the owner of a session, in whichever process, to look at it now: a notice on `SESSION_OWNER_CHANNEL`, heard
   * by every process listening there (Postgres; on PGlite nobody listens). It goes once the statement commits.
   */
  async callOwner(sessionId: string): Promise<void> {
    await sendNotice(this.db, SESSION_OWNER_CHANNEL, sessionId);
  }

  /** Active sessions that nobody holds: no lease, an expired lease, or an owner that is gone. Oldest first. */
  async orphans(now: Date, limit: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`${orphanSessions(now, limit)}`.execute(this.db);
    return rows.map((row) => row.id);
  }

  /** The newest message id of a session (0 when none): where an owner starts watching. */
  async lastMessageId(sessionId: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('last'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** How many leases each owner holds (metrics, console). */
  async countByOwner(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('session_leases')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('owner_id')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.owner_id, Number(row.count)]));
  }

  /**
   * An owner's once-a-second pass in one round trip instead of four (an idle process sends it all day, and several
   * processes send it to one Postgres): its sessions' statuses, the kicks asked of it (cleared), people's messages in
   * its sessions after `afterId` that it has not seen (at most 500), and up to `orphanLimit` active sessions nobody holds.
   * The seen ids are left out with `NOT IN (SELECT unnest(…))`, which Postgres hashes; `<> all(…)` compared each row
   * with every id once the prepared statement's plan went generic (10 ms against 3 for 2,000 of 8,000 rows).
   */
  async ownerPass(query: OwnerPassQuery): Promise<OwnerPass> {
    const { ownerId, sessionIds, afterId, seenIds, now, orphanLimit } = query;
    const { rows } = await sql<OwnerPassRow>`
      WITH kicks AS (
        UPDATE session_leases SET kick_requested = false
        WHERE owner_id = ${ownerId} AND kick_requested = true
        RETURNING session_id
      ),
      statuses AS (
        SELECT id, status FROM sessions WHERE id = any(${sessionIds}::text[]) AND deleted_at IS NULL
      ),
      humans AS (
        SELECT id, session_id FROM messages
        WHERE session_id = any(${sessionIds}::text[]) AND speaker_kind = 'human' AND id > ${afterId} AND deleted_at IS NULL
          AND id NOT IN (SELECT unnest(${seenIds}::bigint[]))
        ORDER BY id LIMIT 500
      ),
      orphans AS (${orphanSessions(now, orphanLimit, { ownerId, sessionIds })})
      SELECT 'kick' AS kind, session_id, NULL::text AS status, NULL::bigint AS ordinal FROM kicks
      UNION ALL SELECT 'status', id, status, NULL FROM statuses
      UNION ALL SELECT 'human', session_id, NULL, id FROM humans
      UNION ALL SELECT 'orphan', id, NULL, ordinal FROM orphans
    `.execute(this.pollDb);
    return ownerPassOf(rows);
  }
}

/** Sorts the pass's rows into its parts, in the order each part promises (UNION ALL keeps none). */
function ownerPassOf(rows: OwnerPassRow[]): OwnerPass {
  const ordered = (kind: OwnerPassRow['kind']) =>
    rows
      .filter((row) => row.kind === kind)
      .map((row) => ({ sessionId: row.session_id, ordinal: Number(row.ordinal) }))
      .sort((left, right) => left.ordinal - right.ordinal);
  return {
    statuses: new Map(rows.filter((row) => row.kind === 'status').map((row) => [row.session_id, row.status ?? ''])),
    kicks: rows.filter((row) => row.kind === 'kick').map((row) => row.session_id),
    humanMessages: ordered('human').map((row) => ({ id: row.ordinal, sessionId: row.sessionId })),
    orphans: ordered('orphan').map((row) => row.sessionId),
  };
}
