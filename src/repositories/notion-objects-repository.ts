import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Ids of Notion objects this installation created or found, by key (`database:...`, `session:<id>:row`). */
export class NotionObjectsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The id stored under a key, or null. */
  async get(key: string): Promise<string | null> {
    const row = await this.db.selectFrom('notion_objects').select('object_id').where('key', '=', key).executeTakeFirst();
    return row?.object_id ?? null;
  }

  /** Stores (or replaces) the id under a key. */
  async set(key: string, objectId: string, now: Date): Promise<void> {
    await this.db
      .insertInto('notion_objects')
      .values({ key, object_id: objectId, updated_at: now })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ object_id: objectId, updated_at: now }))
      .execute();
  }

  /** Stores `value` under `key` only when nothing is stored there; true when this call stored it. */
  async claim(key: string, value: string, now: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('notion_objects')
      .values({ key, object_id: value, updated_at: now })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets a key; true when something was stored under it. */
  async release(key: string): Promise<boolean> {
    const row = await this.db.deleteFrom('notion_objects').where('key', '=', key).returning('key').executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets a key (the object was trashed or vanished). */
  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('notion_objects').where('key', '=', key).execute();
  }
}
