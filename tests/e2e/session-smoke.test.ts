import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' }));
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

it('plays topic -> questions -> answers -> plan -> approve -> participants answer', async () => {
  await test.say(null, 'How should a small team adopt feature flags?');
  await test.settle();
  const room = test.transport.rooms[0]!.roomId;
  const afterQuestions = test.transport.room(room);
  expect(afterQuestions.at(-1)?.speaker).toBe('Planner');
  expect(afterQuestions.at(-1)?.content).toMatch(/questions/i);
  await test.say(room, 'We are 5 engineers shipping a SaaS; we want safer releases.');
  await test.settle();
  const plan = test.transport.room(room).at(-1);
  expect(plan?.content).toMatch(/Proposed plan/);
  expect(plan?.actions).toEqual(['approve_plan']);
  const reply = await test.command(room, 'approve');
  expect(reply.content).toMatch(/approved/i);
  await test.settle();
  const speakers = test.transport.room(room).map((message) => message.speaker);
  expect(speakers).toContain('Moderator');
  expect(speakers).toEqual(expect.arrayContaining(['Claude', 'ChatGPT', 'Grok']));
  console.log(test.transport.room(room).map((m) => `${m.speaker}: ${m.content.slice(0, 80)}`).join('\n'));
});
