import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A person's message found by an owner polling its sessions. */
export interface HumanMessageRef {
  id: number;
  sessionId: string;
}

/** Which worker instance runs each live session's turns: leases that expire unless renewed. */
export class SessionLeasesRepository {
  constructor(private readonly db: Kysely<Database>) {}

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

  /** Extends the leases `ownerId` still holds among `sessionIds`; returns those it still holds. */
  async renew(ownerId: string, sessionIds: string[], until: Date): Promise<string[]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.db
      .updateTable('session_leases')
      .set({ lease_until: until })
      .where('owner_id', '=', ownerId)
      .where('session_id', 'in', sessionIds)
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

  /** The sessions of `ownerId` whose kick was requested, clearing the requests. */
  async takeKicks(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('session_leases')
      .set({ kick_requested: false })
      .where('owner_id', '=', ownerId)
      .where('kick_requested', '=', true)
      .returning('session_id')
      .execute();
    return rows.map((row) => row.session_id);
  }

  /** Active sessions that nobody holds: no lease, an expired lease, or an owner that is gone. Oldest first. */
  async orphans(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sessions as session')
      .leftJoin('session_leases as lease', 'lease.session_id', 'session.id')
      .select('session.id')
      .where('session.status', '=', 'active')
      .where('session.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('lease.session_id', 'is', null),
          eb('lease.lease_until', '<', now),
          eb('lease.owner_id', 'in', eb.selectFrom('worker_instances').select('id').where('stopped_at', 'is not', null)),
        ]),
      )
      .orderBy('session.updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** People's messages in `sessionIds` stored after `afterId`, oldest first (an owner picks up what others stored). */
  async humanMessagesAfter(sessionIds: string[], afterId: number): Promise<HumanMessageRef[]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('messages')
      .select(['id', 'session_id'])
      .where('session_id', 'in', sessionIds)
      .where('speaker_kind', '=', 'human')
      .where('id', '>', afterId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(500)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), sessionId: row.session_id }));
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

  /** The status of each of `sessionIds` that still exists (an owner drops the others). */
  async statusesOf(sessionIds: string[]): Promise<Map<string, string>> {
    if (sessionIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('sessions').select(['id', 'status']).where('id', 'in', sessionIds).where('deleted_at', 'is', null).execute();
    return new Map(rows.map((row) => [row.id, row.status]));
  }
}
