import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { notionObjectStore } from '../../../src/notion/create-notion-gateway.ts';
import { NotionGateway, type NotionObjectStore } from '../../../src/notion/notion-gateway.ts';
import type { SessionRowValues } from '../../../src/notion/session-row.ts';
import { NotionObjectsRepository } from '../../../src/repositories/notion-objects-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const ROW: SessionRowValues = {
  topic: 'Crash-safe writes',
  status: 'active',
  conversationId: 'ses_crash',
  participants: ['Claude', 'GPT'],
  started: new Date('2026-01-01T00:00:00Z'),
  messages: 4,
  tokens: 900,
  costUsd: 0.01,
  threadUrl: 'https://discord.com/channels/1/2',
};

/** A store that "crashes" (throws) when it is about to remember the id of a page Notion already created. */
function crashingOnce(inner: NotionObjectStore, crashKeys: Set<string>): NotionObjectStore {
  return {
    get: (key) => inner.get(key),
    remove: (key) => inner.remove(key),
    claim: (key, value) => inner.claim(key, value),
    set: async (key, value) => {
      if (crashKeys.delete(key)) throw new Error(`process killed before ${key} was stored`);
      await inner.set(key, value);
    },
  };
}

function livePages(fake: FakeNotion, title: string): number {
  return fake.store.findPagesByTitle(title).length;
}

describe.each(ENGINES)('Notion writes that survive crashes and deletions on %s', (engine) => {
  let handle: DatabaseHandle;
  let clock: ManualClock;
  let fake: FakeNotion;
  let objects: NotionObjectStore;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    clock = new ManualClock();
    fake = await startFakeNotion({ clock });
    objects = notionObjectStore(new NotionObjectsRepository(handle.db), clock);
  });
  afterEach(async () => {
    await fake.close();
    await handle.close();
  });

  function gateway(store: NotionObjectStore = objects): NotionGateway {
    return new NotionGateway({ auth: 'secret_test_token', baseUrl: fake.url, clock, requestsPerSecond: 3, parentPageId: fake.parentPageId, objects: store });
  }

  it('a retry after a crash between create and storing the id creates no second row or page', async () => {
    const crashes = new Set(['session:ses_crash:row', 'session:ses_crash:record']);
    const crashing = gateway(crashingOnce(objects, crashes));
    await expect(settleWithClock(crashing.writeDocument('ses_crash', 'record', '# Record\n- first', ROW), clock)).rejects.toThrow(/killed/);
    // the restarted process has a fresh gateway over the same stored ids
    await clock.advance(1000);
    await expect(
      settleWithClock(gateway(crashingOnce(objects, crashes)).writeDocument('ses_crash', 'record', '# Record\n- first', ROW), clock),
    ).rejects.toThrow(/killed/);
    await clock.advance(1000);
    const restarted = gateway();
    await settleWithClock(restarted.writeDocument('ses_crash', 'record', '# Record\n- first\n- second', ROW), clock);
    expect(fake.store.allRows()).toHaveLength(1);
    expect(livePages(fake, 'Detailed record')).toBe(1);
    expect(await settleWithClock(restarted.readDocument('ses_crash', 'record'), clock)).toBe('# Record\n- first\n- second');
  });

  it('recreates the row and the document when a person trashes the row page in Notion', async () => {
    const notion = gateway();
    await settleWithClock(notion.writeDocument('ses_crash', 'record', '# Record\n- before', ROW), clock);
    const rowId = (await notion.sessionRowId('ses_crash')) ?? '';
    fake.store.trashPage(rowId);
    await clock.advance(1000);
    await settleWithClock(notion.writeDocument('ses_crash', 'record', '# Record\n- after', ROW), clock);
    expect(await notion.sessionRowId('ses_crash')).not.toBe(rowId);
    expect(fake.store.allRows()).toHaveLength(1);
    expect(livePages(fake, 'Detailed record')).toBe(1);
    expect(notion.usesMarkdown).toBe(true);
    expect(await settleWithClock(notion.readDocument('ses_crash', 'record'), clock)).toBe('# Record\n- after');
  });

  it('recreates a document page deleted for good, and a row deleted for good', async () => {
    const notion = gateway();
    await settleWithClock(notion.writeDocument('ses_crash', 'record', '# Record\n- one', ROW), clock);
    fake.store.purgePage((await notion.documentId('ses_crash', 'record')) ?? '');
    await clock.advance(1000);
    await settleWithClock(notion.writeDocument('ses_crash', 'record', '# Record\n- two', ROW), clock);
    expect(livePages(fake, 'Detailed record')).toBe(1);
    fake.store.purgePage((await notion.sessionRowId('ses_crash')) ?? '');
    await clock.advance(1000);
    await settleWithClock(notion.writeDocument('ses_crash', 'record', '# Record\n- three', ROW), clock);
    expect(fake.store.allRows()).toHaveLength(1);
    expect(livePages(fake, 'Detailed record')).toBe(1);
    expect(await settleWithClock(notion.readDocument('ses_crash', 'record'), clock)).toBe('# Record\n- three');
  });
});
