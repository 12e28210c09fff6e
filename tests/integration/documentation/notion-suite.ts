import { afterEach, beforeEach } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness, type DocumentationHarness, type DocumentationHarnessOptions } from './documentation-harness.ts';

// vitest's hooks live here, apart from the harness: `npm run bench` builds the harness outside vitest, where importing
// vitest throws.

/** What each test of a Notion suite gets afresh: a database, a manual clock, a fake Notion and the harness on them. */
export interface NotionSuite {
  handle: DatabaseHandle;
  clock: ManualClock;
  notion: FakeNotion;
  harness: DocumentationHarness;
}

/** Set before each test (vitest runs `beforeEach` first), as a suite's `let` variables are. */
class NotionSuiteFields implements NotionSuite {
  handle!: DatabaseHandle;
  clock!: ManualClock;
  notion!: FakeNotion;
  harness!: DocumentationHarness;
}

/** Registers the per-test setup and teardown of a Notion suite; read its fields inside the tests. */
export function notionSuitePerTest(options: Omit<DocumentationHarnessOptions, 'notion' | 'clock'> = {}): NotionSuite {
  const suite = new NotionSuiteFields();
  beforeEach(async () => {
    suite.handle = await openAppTestDatabase();
    suite.clock = new ManualClock();
    suite.notion = await startFakeNotion({ clock: suite.clock });
    suite.harness = createDocumentationHarness(suite.handle, { ...options, notion: suite.notion, clock: suite.clock });
  });
  afterEach(async () => {
    await suite.notion.close();
    await suite.handle.close();
  });
  return suite;
}
