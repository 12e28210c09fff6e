import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { startFakeNotion, type FakeNotion } from '../fakes/notion/fake-notion.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from './test-app.ts';

/** What a suite of the whole app with Notion gets: the fake models, the fake Notion, the app, and their manual clock. */
export interface NotionAppSuite {
  openRouter: FakeOpenRouter;
  notion: FakeNotion;
  test: TestApp;
  clock: ManualClock;
}

/** Set in `beforeAll`, as a suite's `let` variables are. */
class NotionAppSuiteFields implements NotionAppSuite {
  openRouter!: FakeOpenRouter;
  notion!: FakeNotion;
  test!: TestApp;
  constructor(readonly clock: ManualClock) {}
}

/** Registers a suite's app with a fake Notion (started once, stopped after the suite); read its fields inside the tests. */
export function notionAppPerSuite(environment: Record<string, string> = {}, clock = new ManualClock('2026-07-01T09:00:00Z')): NotionAppSuite {
  const suite = new NotionAppSuiteFields(clock);
  beforeAll(async () => {
    suite.openRouter = await startFakeOpenRouter();
    suite.notion = await startFakeNotion({ clock });
    const notion = { NOTION_API_KEY: 'secret_test_token', NOTION_BASE_URL: suite.notion.url, NOTION_PARENT_PAGE_ID: suite.notion.parentPageId };
    suite.test = await startTestApp(fakeEnvironment(suite.openRouter.url, { ...notion, ...environment }), { clock });
  });
  afterAll(async () => {
    await suite.test?.stop();
    await suite.notion?.close();
    await suite.openRouter?.close();
  });
  return suite;
}
