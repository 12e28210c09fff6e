import { sql, type Kysely } from 'kysely';

/**
 * Each message row names the transaction that last wrote it (`changed_xid`), so a process that holds a session's
 * recent messages reads only the rows written since its last read instead of all of them every round. A transaction
 * id, not a time or a sequence: ids of transactions still running when a read began are at or above that read's
 * snapshot horizon (`pg_snapshot_xmin`), so the next read, from that horizon, sees whatever they commit later.
 * The default is set after the column is added, so older rows stay null instead of the table being rewritten under
 * a lock while other processes run (a rolling restart): a null row is older than any read, and a write names it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE messages ADD COLUMN changed_xid xid8;
    ALTER TABLE messages ALTER COLUMN changed_xid SET DEFAULT pg_current_xact_id();
    CREATE FUNCTION messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.changed_xid := pg_current_xact_id();
      RETURN NEW;
    END;
    $$;
    CREATE TRIGGER messages_changed BEFORE UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION messages_changed();
    CREATE INDEX messages_session_changes ON messages (session_id, changed_xid);
  `.execute(db);
}

/** Drops the column, its trigger and its index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER messages_changed ON messages;
    DROP FUNCTION messages_changed();
    ALTER TABLE messages DROP COLUMN changed_xid;
  `.execute(db);
}
