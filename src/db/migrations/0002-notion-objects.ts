import { sql, type Kysely } from 'kysely';

/** Ids of the Notion objects this process created or found (database, data source, session pages). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE notion_objects (
      key text PRIMARY KEY,
      object_id text NOT NULL,
      updated_at timestamptz NOT NULL
    );
  `.execute(db);
}

/** Drops the Notion object ids. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE notion_objects;`.execute(db);
}
