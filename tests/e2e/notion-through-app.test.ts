import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { startFakeNotion, type FakeNotion } from '../fakes/notion/fake-notion.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let openRouter: FakeOpenRouter;
let notion: FakeNotion;
let test: TestApp;
const clock = new ManualClock('2026-07-01T09:00:00Z');

beforeAll(async () => {
  openRouter = await startFakeOpenRouter();
  notion = await startFakeNotion({ clock });
  test = await startTestApp(
    fakeEnvironment(openRouter.url, {
      NOTION_API_KEY: 'secret_test_token',
      NOTION_BASE_URL: notion.url,
      NOTION_PARENT_PAGE_ID: notion.parentPageId,
      SESSION_PLANNER_MAX_QUESTIONS: '0',
      MAX_AI_ROUNDS_WITHOUT_HUMAN: '2',
      SCRIBE_UPDATE_INTERVAL: '30',
      TLDR_UPDATE_INTERVAL: '60',
    }),
    { clock },
  );
});
afterAll(async () => {
  await test?.stop();
  await notion?.close();
  await openRouter?.close();
});

it('the app documents a session in Notion: database row, record, TLDR, and the closing links to them', async () => {
  const room = await proposeSession(test, openRouter, {}, 'Notion wiring through the app');
  await test.command(room, 'approve');
  await test.settle();
  await test.say(room, 'Let us settle on two options.');
  await test.settle();
  await clock.advance(120_000);
  await test.settle();
  openRouter.script(
    { role: 'moderator' },
    replies.json({ action: 'end', drifting: false, objectivesMet: true, message: '', target: '', reason: 'done', quality: 8 }),
  );
  await test.command(room, 'stop');
  for (let round = 0; round < 5; round += 1) {
    await clock.advance(60_000);
    await test.settle();
  }
  const rows = notion.store.allRows();
  expect(rows).toHaveLength(1);
  expect(notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
  expect(notion.store.findPagesByTitle('TLDR')).toHaveLength(1);
  expect(notion.violations).toBe(0);
  expect(notion.rateLimited).toBe(0);
  const session = await test.app.repositories.sessions.findByRoom('memory', room);
  const record = await test.app.services.documentation.latestRecord(session!.id);
  for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(record).toContain(name);
  const closing = test.transport.room(room).at(-1)?.content ?? '';
  expect(closing).toMatch(/this session is closed/);
  expect(closing).toMatch(/Detailed record/);
  expect(closing).toMatch(/TLDR/);
});
