import { sql, type Kysely } from 'kysely';

/**
 * Each document version keeps the metadata it was written with (which messages it covers, the corrections it
 * applied), so a version a person went on editing in Notion can be taken up again from where it stood.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE document_versions ADD COLUMN metadata jsonb`.execute(db);
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE document_versions DROP COLUMN metadata`.execute(db);
}
