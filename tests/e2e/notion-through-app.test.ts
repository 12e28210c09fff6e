import { expect, it } from 'vitest';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { notionAppPerSuite } from '../support/notion-app-suite.ts';
import { proposeSession } from '../support/session-driver.ts';

const suite = notionAppPerSuite({
  SESSION_PLANNER_MAX_QUESTIONS: '0',
  MAX_AI_ROUNDS_WITHOUT_HUMAN: '2',
  SCRIBE_UPDATE_INTERVAL: '30',
  TLDR_UPDATE_INTERVAL: '60',
});

it('the app documents a session in Notion: database row, record, TLDR, and the closing links to them', async () => {
  const room = await proposeSession(suite.test, suite.openRouter, {}, 'Notion wiring through the app');
  await suite.test.command(room, 'approve');
  await suite.test.settle();
  await suite.test.say(room, 'Let us settle on two options.');
  await suite.test.settle();
  await suite.clock.advance(120_000);
  await suite.test.settle();
  suite.openRouter.script(
    { role: 'moderator' },
    replies.json({ action: 'end', drifting: false, objectivesMet: true, message: '', target: '', reason: 'done', quality: 8 }),
  );
  await suite.test.command(room, 'stop');
  for (let round = 0; round < 5; round += 1) {
    await suite.clock.advance(60_000);
    await suite.test.settle();
  }
  const rows = suite.notion.store.allRows();
  expect(rows).toHaveLength(1);
  expect(suite.notion.store.findPagesByTitle('Detailed record')).toHaveLength(1);
  expect(suite.notion.store.findPagesByTitle('TLDR')).toHaveLength(1);
  expect(suite.notion.violations).toBe(0);
  expect(suite.notion.rateLimited).toBe(0);
  const session = await suite.test.app.repositories.sessions.findByRoom('memory', room);
  const record = await suite.test.app.services.documentation.latestRecord(session!.id);
  for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(record).toContain(name);
  const closing = suite.test.transport.room(room).at(-1)?.content ?? '';
  expect(closing).toMatch(/this session is closed/);
  expect(closing).toMatch(/Detailed record/);
  expect(closing).toMatch(/TLDR/);
});
