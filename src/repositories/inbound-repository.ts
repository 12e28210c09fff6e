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

/** Claims on people's messages, and per-channel read cursors for catch-up. */
export class InboundRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims a transport message (true for the one caller, of any process, that may act on it) and when it is ours
   * advances the channel's cursor to it, in one statement: the one round trip a person's message waits for before it is
   * stored. A claimant trying `again` a message whose handling the database cut short takes its own claim again.
   */
  async claimAndAdvance(transport: string, channelId: string, externalId: string, now: Date, claimant: Claimant): Promise<boolean> {
    const row = await this.db
      .with('claimed', (creator) =>
        creator
          .insertInto('inbound_claims')
          .values({ transport, external_id: externalId, claimed_at: now, claimed_by: claimant.id })
          .onConflict((conflict) => {
            const existing = conflict.columns(['transport', 'external_id']);
            return claimant.again ? existing.doUpdateSet({ claimed_at: now }).where('inbound_claims.claimed_by', '=', claimant.id) : existing.doNothing();
          })
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

  /** The last message seen in each channel of a transport. */
  async cursors(transport: string): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('read_cursors').select(['channel_id', 'last_external_id']).where('transport', '=', transport).execute();
    return new Map(rows.map((row) => [row.channel_id, row.last_external_id]));
  }
}
