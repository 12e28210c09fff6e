import { sql, type Kysely } from 'kysely';

/**
 * Where each stored cost came from ('provider', 'price_table', 'config', 'unknown'): endpoints other than OpenRouter
 * send no cost, so a cost may be the provider's, estimated from a price, or unknown. Null: recorded before this.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE spans ADD COLUMN cost_source text;
    ALTER TABLE messages ADD COLUMN cost_source text;
  `.execute(db);
}

/** Drops both columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE messages DROP COLUMN cost_source;
    ALTER TABLE spans DROP COLUMN cost_source;
  `.execute(db);
}
