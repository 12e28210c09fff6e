/** Every model call of a session counts toward its tokens and cost: the Planner's too, not only participants' answers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url));
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

describe('usage is whole', () => {
  it('counts the Planner’s model calls toward the session before any participant spoke', async () => {
    fake.script(
      { role: 'planner' },
      { ...replies.toolCall('start_session', scriptedPlan()), usage: { promptTokens: 900, completionTokens: 300, costUsd: 0.012 } },
    );
    await test.say(null, 'How should we run incident reviews?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
    await test.app.services.coordinator.idle();
    await test.settle();
    const counted = (await test.app.repositories.sessions.findById(session!.id))!;
    expect(counted.status).toBe('awaiting_approval');
    expect(counted.totalTokens).toBeGreaterThanOrEqual(1200);
    // Counted once, not by two paths.
    expect(counted.totalTokens).toBeLessThan(2400);
    expect(counted.totalCostUsd).toBeGreaterThanOrEqual(0.012);
  });
});
