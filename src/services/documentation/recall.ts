/** Recall of past sessions by topic similarity: model embeddings when available, a local hashed vector otherwise. */
import { createHash } from 'node:crypto';
import type { RecalledSession } from '../../core/ports.ts';
import type { DocumentationDependencies } from './documentation-types.ts';
import { clipText } from '../../core/text-clip.ts';

/** Embedding kinds stored per session. */
export const RECALL_KINDS = { model: 'summary', lexical: 'summary_lexical' } as const;

const LEXICAL_DIMENSIONS = 256;

/** A bag-of-words vector (hashed words, lower case) so recall works without an embedding model. */
export function lexicalEmbedding(text: string): number[] {
  const vector = new Array<number>(LEXICAL_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    const bucket = createHash('sha1').update(word).digest().readUInt16BE(0) % LEXICAL_DIMENSIONS;
    vector[bucket] = (vector[bucket] ?? 0) + 1;
  }
  return vector;
}

/** Stores a session's summary for recall (model vector when possible, lexical always). */
export async function rememberSession(
  deps: Pick<DocumentationDependencies, 'embeddings' | 'models' | 'clock' | 'logger'>,
  sessionId: string,
  text: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.embeddings.replace(sessionId, RECALL_KINDS.lexical, text, lexicalEmbedding(text), now);
  try {
    const vectors = await deps.models.embed([text]);
    const vector = vectors?.[0];
    if (vector && vector.length > 0) await deps.embeddings.replace(sessionId, RECALL_KINDS.model, text, vector, now);
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not embed the session summary; lexical recall only');
  }
}

/** Past sessions most similar to `query`, best first. */
export async function recallSessions(
  deps: Pick<DocumentationDependencies, 'embeddings' | 'models' | 'sessions' | 'logger'>,
  query: string,
  limit: number,
  excludeSessionId?: string,
): Promise<RecalledSession[]> {
  let vector: number[] | undefined;
  try {
    vector = (await deps.models.embed([query]))?.[0];
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not embed the recall query; using lexical recall');
  }
  const matches = vector && vector.length > 0 ? await deps.embeddings.mostSimilar(RECALL_KINDS.model, vector, limit, excludeSessionId) : [];
  const found = matches.length > 0 ? matches : await deps.embeddings.mostSimilar(RECALL_KINDS.lexical, lexicalEmbedding(query), limit, excludeSessionId);
  const recalled: RecalledSession[] = [];
  for (const match of found) {
    if (match.similarity <= 0) continue;
    const session = await deps.sessions.findById(match.sessionId);
    if (!session) continue;
    recalled.push({ sessionId: match.sessionId, topic: session.topic, similarity: match.similarity, summary: clipText(match.content, 1500) });
  }
  return recalled;
}
