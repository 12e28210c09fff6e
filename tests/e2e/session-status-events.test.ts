/** One owner for session state: the Planner's status changes go through the lifecycle, so live views hear of them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/ports.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0' }));
});
afterAll(async () => {
  await test?.stop();
  await fake?.close();
});

describe('session status events', () => {
  it('a proposed plan publishes awaiting_approval, and the approval publishes active', async () => {
    const seen: string[] = [];
    test.app.events.subscribe((event: SessionEvent) => {
      if (event.type === 'session') seen.push(event.session.status);
    });
    const room = await proposeSession(test, fake);
    expect(seen).toContain('awaiting_approval');
    await test.command(room, 'approve');
    await test.settle();
    expect(seen.slice(seen.indexOf('awaiting_approval'))).toContain('active');
  });
});
