import { afterAll, beforeAll, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', SESSION_PLANNER_MAX_QUESTIONS: '0' }));
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

it('!explore opens a session titled with the subtopic, plans with the parent summary, and links both ways', async () => {
  const parentRoom = await proposeSession(test, fake, {}, 'Feature flags for a small team\nWe ship weekly and flags pile up.');
  await test.command(parentRoom, 'approve');
  await test.settle();
  const parent = await test.app.repositories.sessions.findByRoom('memory', parentRoom);

  fake.script({ role: 'planner' }, replies.json({ questions: ['Which flags hurt most?'] }));
  const reply = await test.command(parentRoom, 'explore', 'kill switches for payments');
  await test.settle();
  const childRoom = test.transport.rooms.at(-1);
  expect(reply.content).toContain(`[kill switches for payments](memory://${childRoom?.roomId})`);

  const child = await test.app.repositories.sessions.findByRoom('memory', childRoom?.roomId ?? '');
  expect(child?.topic).toBe('kill switches for payments');
  expect(child?.parentId).toBe(parent?.id);
  expect(child?.plannerState.seed).toContain('Explored from [“Feature flags for a small team”](memory://');
  const [first] = await test.app.repositories.messages.listForSession(child?.id ?? '');
  expect(first?.text).toMatch(/^kill switches for payments\n\nExplored from \[“Feature flags for a small team”\]\(memory:\/\/[^)]+\)/);
  const plannerRequest = fake.requests.filter((request) => String(JSON.stringify(request.body)).includes('kill switches for payments')).at(-1);
  expect(JSON.stringify(plannerRequest?.body)).toContain('Context this session starts from');
});
