import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { DocumentsRepository } from '../../../src/repositories/documents-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { storeSession } from '../../support/service-doubles.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

describe.each(ENGINES)('a document version made from the newest one, on %s', (engine) => {
  let handle: DatabaseHandle;
  let documents: DocumentsRepository;
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const sessionId = `ses_${engine}_${Math.random().toString(36).slice(2, 8)}`;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    documents = new DocumentsRepository(handle.db);
    await storeSession(new SessionsRepository(handle.db), clock, { id: sessionId });
  });
  afterEach(async () => handle.close());

  it('is written only while the newest is the one it was made from (0: none yet); a writer that came second gets null', async () => {
    expect(await documents.writeAfter(sessionId, 'record', 'first', {}, clock.now(), 1)).toBeNull();
    expect((await documents.writeAfter(sessionId, 'record', 'first', {}, clock.now(), 0))?.version).toBe(1);
    // Two writers made their versions from version 1: one lands, the other is told to make its version again.
    const [scribe, person] = await Promise.all([
      documents.writeAfter(sessionId, 'record', 'the Scribe’s', {}, clock.now(), 1),
      documents.writeAfter(sessionId, 'record', 'a person’s', {}, clock.now(), 1),
    ]);
    expect([scribe?.version ?? null, person?.version ?? null].sort()).toEqual([2, null]);
    expect((await documents.find(sessionId, 'record'))?.version).toBe(2);
    expect((await documents.writeAfter(sessionId, 'record', 'anyway', {}, clock.now(), null))?.version).toBe(3);
    expect((await documents.write(sessionId, 'record', 'as before', {}, clock.now())).version).toBe(4);
  });
});
