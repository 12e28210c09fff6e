import { sql, type Kysely } from 'kysely';
import { toJson, type Database, type DocumentRow } from '../db/schema.ts';
import { sendNotice } from './notices.ts';

/** A kind of session document. */
export type DocumentKind = 'record' | 'tldr';

/** A document's newest version. */
export interface StoredDocument {
  id: number;
  sessionId: string;
  kind: DocumentKind;
  version: number;
  content: string;
  metadata: Record<string, unknown>;
  externalId: string | null;
  syncedVersion: number;
  updatedAt: Date;
}

/** One earlier version of a document: its text and what it was written with. */
export interface DocumentVersion {
  version: number;
  content: string;
  metadata: Record<string, unknown>;
}

function toDocument(row: DocumentRow): StoredDocument {
  return {
    id: Number(row.id),
    sessionId: row.session_id,
    kind: row.kind as DocumentKind,
    version: row.version,
    content: row.content,
    metadata: row.metadata ?? {},
    externalId: row.external_id,
    syncedVersion: Number(row.synced_version),
    updatedAt: row.updated_at,
  };
}

/** The channel on which a process that handled `!refresh` tells the others (Postgres `NOTIFY`; payload: see the sender). */
export const RECORD_REFRESH_CHANNEL = 'brainstorm_record_refresh';

/** Session documents (Scribe record, TLDR) and their versions. */
export class DocumentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Tells every process listening on `RECORD_REFRESH_CHANNEL` of a `!refresh` (Postgres; on PGlite nobody listens). */
  async announceRefresh(payload: string): Promise<void> {
    await sendNotice(this.db, RECORD_REFRESH_CHANNEL, payload);
  }

  /** Writes a new version of a document (keeping the version's text and metadata); returns it. */
  async write(sessionId: string, kind: DocumentKind, content: string, metadata: Record<string, unknown>, now: Date): Promise<StoredDocument> {
    return (await this.writeAfter(sessionId, kind, content, metadata, now, null))!;
  }

  /**
   * Writes a new version only when the newest is still `after` (0: none yet), as a compare-and-set for a version made
   * from the newest one; null when another writer got in between. `null` for `after`: whatever the newest is.
   */
  async writeAfter(
    sessionId: string,
    kind: DocumentKind,
    content: string,
    metadata: Record<string, unknown>,
    now: Date,
    after: number | null,
  ): Promise<StoredDocument | null> {
    return this.db.transaction().execute(async (transaction) => {
      const existing = await transaction
        .selectFrom('documents')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('kind', '=', kind)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (after !== null && (existing?.version ?? 0) !== after) return null;
      const row = existing
        ? await transaction
            .updateTable('documents')
            .set({ version: sql`version + 1`, content, metadata: toJson(metadata), updated_at: now })
            .where('id', '=', existing.id)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await transaction
            .insertInto('documents')
            .values({ session_id: sessionId, kind, version: 1, content, metadata: toJson(metadata), created_at: now, updated_at: now })
            .returningAll()
            .executeTakeFirstOrThrow();
      await transaction
        .insertInto('document_versions')
        .values({ document_id: row.id, version: row.version, content, metadata: toJson(metadata), created_at: now })
        .execute();
      return toDocument(row);
    });
  }

  /** The newest version of a document, or null. */
  async find(sessionId: string, kind: DocumentKind): Promise<StoredDocument | null> {
    const row = await this.db
      .selectFrom('documents')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toDocument(row) : null;
  }

  /** One version of a document, or null when it was never written. */
  async findVersion(id: number, version: number): Promise<DocumentVersion | null> {
    const row = await this.db
      .selectFrom('document_versions')
      .select(['version', 'content', 'metadata'])
      .where('document_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return row ? { version: row.version, content: row.content, metadata: row.metadata ?? {} } : null;
  }

  /** Records that `version` reached the external store (Notion) under `externalId`; never moves backwards. */
  async markSynced(id: number, version: number, externalId: string | null, now: Date): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ synced_version: sql`greatest(synced_version, ${version})`, ...(externalId ? { external_id: externalId } : {}), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Marks a document as not in the external store at all (its page vanished there), so the next sync rewrites it. */
  async resetSynced(id: number, now: Date): Promise<void> {
    await this.db.updateTable('documents').set({ synced_version: 0, external_id: null, updated_at: now }).where('id', '=', id).execute();
  }

  /** Stores metadata keys (e.g. Notion page ids) without a new version. */
  async mergeMetadata(id: number, metadata: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ metadata: sql`metadata || ${toJson(metadata)}::jsonb` })
      .where('id', '=', id)
      .execute();
  }

  /** How many versions a document has had. */
  async countVersions(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('document_versions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('document_id', '=', id)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
}
