import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let openRouter: FakeOpenRouter;
let test: TestApp;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  openRouter = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(openRouter.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', NEXT_STEPS_REMINDER_DAYS: '3' }));
});
afterAll(async () => {
  await test?.stop();
  await openRouter?.close();
});

/** A session whose (simulated) Scribe lists next steps, ended with `!stop`; its room's messages since the closing. */
async function endedSessionWithSteps(topic: string): Promise<{ room: string; since: () => string[] }> {
  const room = await proposeSession(test, openRouter, {}, topic);
  await test.command(room, 'approve');
  await test.settle();
  await test.say(room, 'Let us pilot the new format with one team first.');
  await test.settle();
  await test.command(room, 'stop');
  await test.settle();
  expect(test.transport.room(room).at(-1)?.content).toMatch(/this session is closed/);
  const closed = test.transport.room(room).length;
  return {
    room,
    since: () =>
      test.transport
        .room(room)
        .slice(closed)
        .map((message) => message.content),
  };
}

it('reminds the room once, days after the end, of the steps still open; one ticked meanwhile is left out', async () => {
  const { room, since } = await endedSessionWithSteps('Weekly planning without wasting Monday');
  const steps = (await test.command(room, 'steps')).content;
  const total = Number(/\((\d+) open, 0 done\)/.exec(steps)?.[1]);
  expect(total).toBeGreaterThanOrEqual(2);
  expect((await test.command(room, 'done', '1')).content).toMatch(/done, by Alice/);

  await test.clock.advance(3 * DAY - 60_000);
  await test.settle();
  expect(since().filter((content) => content.includes('still open'))).toEqual([]);

  await test.clock.advance(120_000);
  await test.settle();
  const [reminder, ...more] = since().filter((content) => content.includes('still open'));
  expect(more).toEqual([]);
  expect(reminder).toContain(`**${total - 1} of ${total} next steps from this brainstorm are still open** (3 days on)`);
  expect(reminder).not.toMatch(/☐ 1\./);
  expect(reminder).toMatch(/☐ 2\. /);
  expect(reminder).toContain('`!done <number>`');

  // Once: a week later nothing more is posted.
  await test.clock.advance(7 * DAY);
  await test.settle();
  expect(since().filter((content) => content.includes('still open'))).toHaveLength(1);
});

it('says nothing when every step was done by then', async () => {
  const { room, since } = await endedSessionWithSteps('Release checklist for the mobile app');
  const total = Number(/\((\d+) open, 0 done\)/.exec((await test.command(room, 'steps')).content)?.[1]);
  for (let number = 1; number <= total; number += 1) await test.command(room, 'done', String(number));
  await test.clock.advance(4 * DAY);
  await test.settle();
  expect(since().filter((content) => content.includes('still open'))).toEqual([]);
});
