import { sql, type Kysely } from 'kysely';

/**
 * What the console's local channel showed in each room (deliveries with their buttons, and the notices no session
 * stores), so a restart does not empty its rooms and a process holds none of them in memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE local_deliveries (
      position bigserial PRIMARY KEY,
      external_id text NOT NULL UNIQUE,
      room_id text NOT NULL,
      speaker jsonb NOT NULL,
      content text NOT NULL,
      reply_to jsonb NOT NULL,
      actions jsonb NOT NULL,
      buttons jsonb NOT NULL,
      simulated boolean NOT NULL,
      delivered_at timestamptz NOT NULL
    );
    CREATE INDEX local_deliveries_room ON local_deliveries (room_id, position);
  `.execute(db);
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE local_deliveries`.execute(db);
}
