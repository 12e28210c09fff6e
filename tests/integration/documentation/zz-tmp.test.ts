import { it, expect } from 'vitest';
import { openTestDatabase } from '/work/main/tests/support/databases.ts';
import { DocumentsRepository } from '/work/main/src/repositories/documents-repository.ts';
import { SessionsRepository } from '/work/main/src/repositories/sessions-repository.ts';
it('marks', async () => {
  const h = await openTestDatabase('pglite');
  const now = new Date();
  await new SessionsRepository(h.db).create({ id: 's', parentId: null, transport: 't', roomId: 'r', roomUrl: null, originChannelId: null, originMessageId: null, topic: 'x', status: 'active', createdBy: { id: 'u', name: 'n' } }, now);
  const docs = new DocumentsRepository(h.db);
  const d = await docs.write('s', 'record', 'a', {}, now);
  await docs.markSynced(d.id, d.version, 'page', now);
  console.log(await docs.find('s', 'record'));
  await h.close();
});
