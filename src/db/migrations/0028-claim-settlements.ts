import { sql, type Kysely } from 'kysely';

/**
 * A claim's channel, and whether its handling ended without storing a message (a command, a refusal, a failure): a
 * claim of a process that died before it stored or settled the message is found again by the next catch-up, which
 * reads its channel from before it and takes the claim over (a claim committed as the connection dropped, the process
 * killed before it tried again, used to lose the message for good). A stored message is settled by its row. Claims
 * older than this column are settled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE inbound_claims ADD COLUMN channel_id text, ADD COLUMN settled boolean NOT NULL DEFAULT true;
    ALTER TABLE inbound_claims ALTER COLUMN settled SET DEFAULT false;
    CREATE INDEX inbound_claims_by_claimant ON inbound_claims (claimed_by, claimed_at);
  `.execute(db);
}

/** Drops the index and the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX inbound_claims_by_claimant;
    ALTER TABLE inbound_claims DROP COLUMN settled, DROP COLUMN channel_id;
  `.execute(db);
}
