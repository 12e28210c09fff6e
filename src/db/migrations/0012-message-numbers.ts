import { sql, type Kysely } from 'kysely';

/**
 * Per-session message numbers: what people and agents cite ("#12" is the twelfth message of that session,
 * whatever other sessions said in between). Existing messages are numbered in id order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE messages ADD COLUMN number integer`.execute(db);
  await sql`
    UPDATE messages SET number = numbered.position
    FROM (SELECT id, row_number() OVER (PARTITION BY session_id ORDER BY id) AS position FROM messages) AS numbered
    WHERE messages.id = numbered.id
  `.execute(db);
  await sql`ALTER TABLE messages ALTER COLUMN number SET NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX messages_session_number ON messages (session_id, number)`.execute(db);
}

/** Drops the numbers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS messages_session_number`.execute(db);
  await sql`ALTER TABLE messages DROP COLUMN IF EXISTS number`.execute(db);
}
