import { sql, type Kysely } from 'kysely';

/**
 * Who sits out the AI rounds after repeating itself, and which repeaters the room was told of, kept with the session:
 * a process that takes the session over (a restart) neither asks them again for two calls nor tells the room again.
 * A constant default: adding the column rewrites no rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions ADD COLUMN repeat_state jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions DROP COLUMN repeat_state`.execute(db);
}
