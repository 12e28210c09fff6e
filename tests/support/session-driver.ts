import type { FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import type { SessionPlan } from '../../src/core/domain.ts';
import { scriptedPlan } from './scripted-plans.ts';
import type { TestApp } from './test-app.ts';

/** Starts a session whose Planner plans at once; returns its room id (awaiting approval). */
export async function proposeSession(
  test: TestApp,
  fake: FakeOpenRouter,
  parameters: Partial<SessionPlan['parameters']> = {},
  topic = 'Feature flags for a small team',
): Promise<string> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan(parameters)));
  await test.say(null, topic);
  await test.settle();
  const room = test.transport.rooms.at(-1)?.roomId;
  if (!room) throw new Error('no room was opened');
  return room;
}

/** Polls (without sleeping on time) until `condition` holds, for code running in the background. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, attempts = 2000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}
