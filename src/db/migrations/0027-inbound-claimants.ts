import { sql, type Kysely } from 'kysely';

/**
 * Who claimed a person's message: a process whose claim committed while the database's answer was lost (or whose store
 * failed after it) holds the message and tries it again, and then takes its own claim again instead of reading it as
 * another process's and dropping the message. Rows claimed before this column have no claimant, as a claim of nobody's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE inbound_claims ADD COLUMN claimed_by text`.execute(db);
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE inbound_claims DROP COLUMN claimed_by`.execute(db);
}
