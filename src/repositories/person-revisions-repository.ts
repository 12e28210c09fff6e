/**
 * What people change after posting: an edit replaces a stored message's text (marked edited), a deletion removes it
 * from every read (`deleted_at`), as Discord shows it. Only people's messages are found here: an agent's are ours.
 */
import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ChatMessage } from '../core/domain.ts';
import { toMessage } from './message-rows.ts';

/** Edits and deletions of people's stored messages. */
export class PersonRevisionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A person's stored message by where it came from (`transport:externalId`), unless it was removed. */
  async findBySource(sourceId: string): Promise<ChatMessage | null> {
    const row = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('source_id', '=', sourceId)
      .where('speaker_kind', '=', 'human')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** Replaces the text of a person's message and marks it edited (and when); null when it is gone. */
  async revise(id: number, text: string, now: Date): Promise<ChatMessage | null> {
    const changes = JSON.stringify({ content: text, edited: true, editedAt: now.toISOString() });
    return this.changeLive(id, { content: sql`content || ${changes}::jsonb` });
  }

  /** Removes a person's message from every read; null when it was gone already. */
  async remove(id: number, now: Date): Promise<ChatMessage | null> {
    return this.changeLive(id, { deleted_at: now });
  }

  /** Applies `changes` to a person's message that is still there; the message as changed, or null. */
  private async changeLive(id: number, changes: UpdateObject<Database, 'messages'>): Promise<ChatMessage | null> {
    const row = await this.db
      .updateTable('messages')
      .set(changes)
      .where('id', '=', id)
      .where('speaker_kind', '=', 'human')
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /**
   * People's messages up to `throughId` edited or deleted at or after `since`: what a record written from them must now
   * correct. Deleted ones come with `deleted: true`.
   */
  async revisedSince(sessionId: string, throughId: number, since: Date): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('speaker_kind', '=', 'human')
      .where('id', '<=', throughId)
      // At or after: one made in the very instant a pass read the messages is corrected again rather than never.
      .where((where) => where.or([where('deleted_at', '>=', since), where(sql<Date>`(content->>'editedAt')::timestamptz`, '>=', since)]))
      .orderBy('id')
      .execute();
    return rows.map((row) => (row.deleted_at === null ? toMessage(row) : { ...toMessage(row), deleted: true }));
  }
}
