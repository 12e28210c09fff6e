import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One stored embedding of a session (its topic, summary or record). */
export interface StoredEmbedding {
  sessionId: string;
  kind: string;
  content: string;
  embedding: number[];
  createdAt: Date;
}

/** A stored embedding and its cosine similarity to a query. */
export interface SimilarEmbedding extends StoredEmbedding {
  similarity: number;
}

/** Cosine similarity of two vectors (0 when either is empty or zero, or their lengths differ). */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  if (left.length === 0 || left.length !== right.length) return 0;
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/**
 * Session embeddings for recall (a float array; similarity computed in code, because Debian's Postgres here has
 * no pgvector). One embedding per session and kind: storing again replaces it.
 */
export class EmbeddingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the embedding of a session's `kind`, replacing an earlier one. */
  async replace(sessionId: string, kind: string, content: string, embedding: readonly number[], now: Date): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('session_embeddings').where('session_id', '=', sessionId).where('kind', '=', kind).execute();
      await transaction
        .insertInto('session_embeddings')
        .values({ session_id: sessionId, kind, content, embedding: [...embedding], created_at: now })
        .execute();
    });
  }

  /** The embedding of a session's `kind`, or null. */
  async find(sessionId: string, kind: string): Promise<StoredEmbedding | null> {
    const row = await this.db
      .selectFrom('session_embeddings')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? { sessionId: row.session_id, kind: row.kind, content: row.content, embedding: row.embedding.map(Number), createdAt: row.created_at } : null;
  }

  /** The `limit` embeddings of `kind` most similar to `query`, best first, leaving out `excludeSessionId`. */
  async mostSimilar(kind: string, query: readonly number[], limit: number, excludeSessionId?: string): Promise<SimilarEmbedding[]> {
    let select = this.db.selectFrom('session_embeddings').selectAll().where('kind', '=', kind);
    if (excludeSessionId) select = select.where('session_id', '!=', excludeSessionId);
    const rows = await select.execute();
    return rows
      .map((row) => {
        const embedding = row.embedding.map(Number);
        return {
          sessionId: row.session_id,
          kind: row.kind,
          content: row.content,
          embedding,
          createdAt: row.created_at,
          similarity: cosineSimilarity(query, embedding),
        };
      })
      .sort((left, right) => right.similarity - left.similarity)
      .slice(0, limit);
  }
}
