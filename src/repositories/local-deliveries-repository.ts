/** The console's local channel, kept: what it showed in each room, for the room's page after a restart. */
import type { Kysely, Selectable } from 'kysely';
import type { LocalDelivery, LocalDeliveryStore } from '../core/local-channel.ts';
import type { Speaker } from '../core/domain.ts';
import type { MessageAction, ReplyButton, ReplyReference } from '../core/ports.ts';
import { toJson, type Database, type LocalDeliveriesTable } from '../db/schema.ts';

/** The local channel's deliveries in the database, shared by every process on it. */
export class LocalDeliveriesRepository implements LocalDeliveryStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Keeps a delivery; one kept already (a retried delivery) is left as it is. */
  async save(delivery: LocalDelivery): Promise<void> {
    await this.db
      .insertInto('local_deliveries')
      .values({
        external_id: delivery.externalId,
        room_id: delivery.roomId,
        speaker: toJson(delivery.speaker),
        content: delivery.content,
        reply_to: toJson(delivery.replyTo),
        actions: toJson(delivery.actions),
        buttons: toJson(delivery.buttons),
        simulated: delivery.simulated,
        delivered_at: delivery.deliveredAt,
      })
      .onConflict((conflict) => conflict.column('external_id').doNothing())
      .execute();
  }

  /** The room's newest `limit` deliveries, oldest first. */
  async listForRoom(roomId: string, limit: number): Promise<LocalDelivery[]> {
    const rows = await this.db.selectFrom('local_deliveries').selectAll().where('room_id', '=', roomId).orderBy('position', 'desc').limit(limit).execute();
    return rows.reverse().map(toDelivery);
  }
}

function toDelivery(row: Selectable<LocalDeliveriesTable>): LocalDelivery {
  return {
    externalId: row.external_id,
    roomId: row.room_id,
    speaker: row.speaker as Speaker,
    content: row.content,
    replyTo: row.reply_to as ReplyReference[],
    actions: row.actions as MessageAction[],
    buttons: row.buttons as ReplyButton[],
    simulated: row.simulated,
    deliveredAt: row.delivered_at.toISOString(),
  };
}
