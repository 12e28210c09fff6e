import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { cosineSimilarity, EmbeddingsRepository } from '../../../src/repositories/embeddings-repository.ts';
import { NotionObjectsRepository } from '../../../src/repositories/notion-objects-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

describe.each(ENGINES)('embeddings and Notion object ids on %s', (engine) => {
  let handle: DatabaseHandle;
  const now = new Date('2026-01-01T00:00:00Z');

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    const sessions = new SessionsRepository(handle.db);
    for (const id of ['s1', 's2', 's3']) {
      await sessions.create(
        {
          id,
          parentId: null,
          transport: 't',
          roomId: id,
          roomUrl: null,
          originChannelId: null,
          originMessageId: null,
          topic: id,
          status: 'active',
          createdBy: { id: 'u', name: 'U' },
        },
        now,
      );
    }
  });
  afterAll(async () => handle.close());

  it('replaces a session embedding and ranks by cosine similarity, leaving out a session', async () => {
    const embeddings = new EmbeddingsRepository(handle.db);
    await embeddings.replace('s1', 'summary', 'old', [0, 1, 0], now);
    await embeddings.replace('s1', 'summary', 'caching', [1, 0, 0], now);
    await embeddings.replace('s2', 'summary', 'hiring', [0, 1, 0], now);
    await embeddings.replace('s3', 'summary', 'cdn', [0.9, 0.1, 0], now);
    expect((await embeddings.find('s1', 'summary'))?.content).toBe('caching');
    const ranked = await embeddings.mostSimilar('summary', [1, 0, 0], 3);
    expect(ranked.map((entry) => entry.sessionId)).toEqual(['s1', 's3', 's2']);
    expect(ranked[0]?.similarity).toBeCloseTo(1, 5);
    const others = await embeddings.mostSimilar('summary', [1, 0, 0], 3, 's1');
    expect(others.map((entry) => entry.sessionId)).toEqual(['s3', 's2']);
  });

  it('stores, replaces and forgets Notion object ids', async () => {
    const objects = new NotionObjectsRepository(handle.db);
    expect(await objects.get('session:s1:row')).toBeNull();
    await objects.set('session:s1:row', 'page-1', now);
    await objects.set('session:s1:row', 'page-2', now);
    expect(await objects.get('session:s1:row')).toBe('page-2');
    await objects.remove('session:s1:row');
    expect(await objects.get('session:s1:row')).toBeNull();
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel, 0 for orthogonal, and 0 for mismatched vectors', () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1, 10);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
  });
});
