import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Compares two transport ids: Discord snowflakes by value (a longer one is newer), other ids as text. */
export function isNewerId(candidate: string, current: string): boolean {
  if (/^\d+$/.test(candidate) && /^\d+$/.test(current)) return BigInt(candidate) > BigInt(current);
  return candidate > current;
}

/** `isNewerId` in SQL: digits by value (a longer snowflake is newer), anything else as text in code-unit order. */
function isNewerSql(candidate: RawBuilder<unknown>, current: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`CASE WHEN ${candidate} ~ '^[0-9]+$' AND ${current} ~ '^[0-9]+$' THEN ${candidate}::numeric > ${current}::numeric ELSE ${candidate} COLLATE "C" > ${current} COLLATE "C" END`;
}

/** Who claims a message: a process, and whether it tried this message before without taking it in. */
export interface Claimant {
  /** The worker instance id of the process. */
  id: string;
  /** It claimed (or tried to claim) this message before and the database cut the handling short. */
  again: boolean;
}

/** A message a process that is gone claimed and never handled. */
export interface UnfinishedClaim {
  channelId: string;
  externalId: string;
}

/** Whether the claim in conflict belongs to a process that is gone (stopped, or declared gone by another). */
const claimedByGone = sql<boolean>`exists (select 1 from worker_instances as instance where instance.id = inbound_claims.claimed_by and instance.stopped_at is not null)`;

/** Claims on people's messages, and per-channel read cursors for catch-up. */
export class InboundRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims a transport message (true for the one caller, of any process, that may act on it) and when it is ours
   * advances the channel's cursor to it, in one statement: the one round trip a person's message waits for before it is
   * stored. A claimant trying `again` a message whose handling the database cut short takes its own claim again; an
   * unsettled claim of a process that is gone (stopped, or declared gone) is anyone's to take over.
   */
  async claimAndAdvance(transport: string, channelId: string, externalId: string, now: Date, claimant: Claimant): Promise<boolean> {
    const row = await this.db
      .with('claimed', (creator) =>
        creator
          .insertInto('inbound_claims')
          .values({ transport, external_id: externalId, claimed_at: now, claimed_by: claimant.id, channel_id: channelId })
          .onConflict((conflict) =>
            conflict
              .columns(['transport', 'external_id'])
              .doUpdateSet({ claimed_at: now, claimed_by: claimant.id })
              .where(
                sql<boolean>`not inbound_claims.settled and (${sql.lit(claimant.again)} and inbound_claims.claimed_by = ${claimant.id} or ${claimedByGone})`,
              ),
          )
          .returning('external_id'),
      )
      .with('advanced', (creator) =>
        creator
          .insertInto('read_cursors')
          .columns(['transport', 'channel_id', 'last_external_id', 'updated_at'])
          .expression((eb) =>
            eb
              .selectFrom('claimed')
              .select([
                sql<string>`${transport}::text`.as('transport'),
                sql<string>`${channelId}::text`.as('channel_id'),
                'claimed.external_id',
                sql<Date>`${now}::timestamptz`.as('updated_at'),
              ]),
          )
          .onConflict((conflict) =>
            conflict
              .columns(['transport', 'channel_id'])
              .doUpdateSet({ last_external_id: externalId, updated_at: now })
              .where(isNewerSql(sql.ref('excluded.last_external_id'), sql.ref('read_cursors.last_external_id'))),
          )
          .returning('channel_id'),
      )
      .selectFrom('claimed')
      .select('claimed.external_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks a claim settled: its handling ended without storing the message (a command, a refusal, a failure). */
  async settle(transport: string, externalId: string): Promise<void> {
    await this.db.updateTable('inbound_claims').set({ settled: true }).where('transport', '=', transport).where('external_id', '=', externalId).execute();
  }

  /**
   * The claims of processes that are gone which were never settled nor stored, oldest first: messages a process took
   * and died before handling (its claim's answer lost, the message held, the process killed). Looked for in the last
   * hour of each process gone within a day.
   */
  async unfinished(transport: string, now: Date): Promise<UnfinishedClaim[]> {
    const { rows } = await sql<UnfinishedClaim>`
      select claim.channel_id as "channelId", claim.external_id as "externalId" from worker_instances as instance
      join inbound_claims as claim on claim.claimed_by = instance.id and claim.claimed_at >= instance.heartbeat_at - interval '1 hour'
      where instance.stopped_at > ${now}::timestamptz - interval '1 day'
        and claim.transport = ${transport} and not claim.settled and claim.channel_id is not null
        and not exists (select 1 from messages where messages.source_id = claim.transport || ':' || claim.external_id)
      order by claim.claimed_at, claim.external_id`.execute(this.db);
    return rows;
  }

  /** Moves a channel's cursor forward to `externalId` (never back: handlers finish out of order). */
  async advance(transport: string, channelId: string, externalId: string, now: Date): Promise<void> {
    // One upsert whose update applies only to a newer id (the row lock of the conflict orders racing writers).
    await this.db
      .insertInto('read_cursors')
      .values({ transport, channel_id: channelId, last_external_id: externalId, updated_at: now })
      .onConflict((conflict) =>
        conflict
          .columns(['transport', 'channel_id'])
          .doUpdateSet({ last_external_id: externalId, updated_at: now })
          .where(isNewerSql(sql.ref('excluded.last_external_id'), sql.ref('read_cursors.last_external_id'))),
      )
      .execute();
  }

  /**
   * The last message seen in each of these channels of a transport (those never read have none). Asked by channel: a
   * cursor is kept for every room a session ever had, and a catch-up needs the live ones alone.
   */
  async cursors(transport: string, channelIds: readonly string[]): Promise<Map<string, string>> {
    if (channelIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('read_cursors')
      .select(['channel_id', 'last_external_id'])
      .where('transport', '=', transport)
      .where('channel_id', 'in', [...channelIds])
      .execute();
    return new Map(rows.map((row) => [row.channel_id, row.last_external_id]));
  }
}
