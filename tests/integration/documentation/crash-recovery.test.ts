import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import type { NotionObjectStore } from '../../../src/notion/notion-gateway.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness } from './documentation-harness.ts';

const DEAD_PID = 31337;

/** The process freezes for good (kill -9) right after Notion created the record page, before its id is stored. */
function freezeAfterRecordCreate(store: NotionObjectStore): NotionObjectStore {
  return {
    get: (key) => store.get(key),
    remove: (key) => store.remove(key),
    claim: (key, value) => store.claim(key, value),
    set: (key, value) => (/^session:.*:record$/.test(key) ? new Promise<void>(() => undefined) : store.set(key, value)),
  };
}

describe.each(ENGINES)('a crash while the final record is written to Notion, on %s', (engine) => {
  let handle: DatabaseHandle;
  let clock: ManualClock;
  let notion: FakeNotion;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    clock = new ManualClock();
    notion = await startFakeNotion({ clock });
  });
  afterEach(async () => {
    await notion.close();
    await handle.close();
  });

  it('is finished within seconds of the restart, with one live "Detailed record" page', async () => {
    const crashed = createDocumentationHarness(handle, {
      notion,
      clock,
      workerId: 'worker-crashed',
      instance: { host: 'box', pid: DEAD_PID, isProcessAlive: () => true },
      wrapObjects: freezeAfterRecordCreate,
    });
    await crashed.newSession('ses_wrap', 'Wrap-up under fire');
    await crashed.service.writeDocument('ses_wrap', 'record', '# Detailed record\n- Claude said (#1): the final record');
    void crashed.worker.runDue();
    // Let the doomed worker get as far as Notion creating the page (time moves only while it waits on the limiter).
    await vi.waitFor(
      async () => {
        if (clock.pendingSleepers > 0) await clock.advance(100);
        expect(notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
      },
      { timeout: 20_000, interval: 5 },
    );
    const crashedAt = clock.now().getTime();

    await clock.advance(3_000);
    const restarted = createDocumentationHarness(handle, {
      notion,
      clock,
      workerId: 'worker-restarted',
      instance: { host: 'box', pid: 4000, isProcessAlive: (pid) => pid !== DEAD_PID },
      dataDir: crashed.dataDir,
    });
    await restarted.runDue();
    const record = await restarted.documents.find('ses_wrap', 'record');
    expect(record?.syncedVersion).toBe(record?.version);
    expect(clock.now().getTime() - crashedAt).toBeLessThan(10_000);
    expect(notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    expect(await restarted.service.readDocument('ses_wrap', 'record')).toContain('the final record');
  });
});
