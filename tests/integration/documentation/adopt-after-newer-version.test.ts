import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import type { NotionGateway } from '../../../src/notion/notion-gateway.ts';
import { DocumentsRepository } from '../../../src/repositories/documents-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { adoptFromNotion, refreshFromNotion } from '../../../src/services/documentation/people-edits.ts';
import { openTestDatabase } from '../../support/databases.ts';
import { storeSession, stub } from '../../support/service-doubles.ts';

let handle: DatabaseHandle;
let documents: DocumentsRepository;
const clock = new ManualClock('2026-03-01T10:00:00Z');
const sessionId = 'ses_adopt';

beforeEach(async () => {
  handle = await openTestDatabase('pglite');
  documents = new DocumentsRepository(handle.db);
  await storeSession(new SessionsRepository(handle.db), clock, { id: sessionId });
});
afterEach(async () => handle.close());

it('a person’s version read from Notion is not taken up over a record the Scribe wrote meanwhile: the newer one stays', async () => {
  const ours = await documents.write(sessionId, 'record', '# Record\n- #3 ours', { lastMessageId: 3 }, clock.now());
  await documents.markSynced(ours.id, ours.version, 'page-1', clock.now());
  const scribes = '# Record\n- #3 ours\n- #4 the Scribe’s newer pass';
  const notion = stub<NotionGateway>('notion', {
    documentEditedByPeople: async () => true,
    // While Notion answers, a Scribe pass (here, or in another process) writes the next version.
    readDocument: async () => {
      await documents.write(sessionId, 'record', scribes, { lastMessageId: 4 }, clock.now());
      return '# Record\n- #3 ours, as a person edited it';
    },
  });
  const mirror = { write: async () => undefined };
  const deps = { documents, notion, logger: createLogger({ level: 'silent', secrets: [] }), clock };
  const adopt = (id: string, kind: 'record' | 'tldr', markdown: string, metadata: Record<string, unknown>, after: number) =>
    adoptFromNotion(deps, mirror, id, kind, markdown, metadata, after);

  expect(await refreshFromNotion(deps, adopt, sessionId)).toBe(scribes);
  const newest = await documents.find(sessionId, 'record');
  expect(newest?.content).toBe(scribes);
  expect(newest?.metadata.lastMessageId).toBe(4);
});
