/** The console's start from a room (`fromRoomId`): a new session whose Planner reads that room's conversation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { sequentialIds } from '../../../src/core/ids.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { ConsoleQueries } from '../../../src/services/console/console-queries.ts';
import { createWebServer, LocalTransport, type WebServer } from '../../../src/web/index.ts';
import { startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;
let server: WebServer;
let local: LocalTransport;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  const clock = new ManualClock('2026-05-01T09:00:00Z');
  local = new LocalTransport({ clock, ids: sequentialIds() });
  test = await startTestApp(fakeEnvironment(fake.url), { clock, transports: [local] });
  server = createWebServer({
    port: 0,
    gateway: test.app.gateway,
    queries: new ConsoleQueries(test.app.repositories, clock),
    events: test.app.events,
    localTransport: local,
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  await server.start();
});
afterAll(async () => {
  await server?.stop();
  await test?.stop();
  await fake?.close();
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe("the console's start from a room", () => {
  it('opens a new room whose Planner reads the first room’s conversation, attributed by name', async () => {
    const first = await post<{ roomId: string }>('/api/local/sessions', { topic: 'Calmer releases', name: 'Ada' });
    await test.settle();
    await post(`/api/rooms/${first.roomId}/messages`, { content: 'Fridays are the worst: rollbacks take an hour.', name: 'Bob' });
    await test.settle();

    const started = await post<{ roomId: string | null }>('/api/local/sessions', { topic: 'Rollbacks in minutes', name: 'Ada', fromRoomId: first.roomId });
    await test.settle();
    expect(started.roomId).not.toBeNull();
    expect(started.roomId).not.toBe(first.roomId);
    const session = await test.app.repositories.sessions.findByRoom(local.name, started.roomId!);
    expect(session?.topic).toBe('Rollbacks in minutes');
    expect(session?.plannerState.conversation?.text).toContain('[Bob]: Fridays are the worst: rollbacks take an hour.');
    const request = JSON.stringify(fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!.body.messages);
    expect(request).toContain('[Ada]: Calmer releases');
    expect(request).toContain('[Bob]: Fridays are the worst');
    const opening = (await local.roomContents(started.roomId!))!.deliveries.find((delivery) => delivery.speaker.name === 'Planner');
    expect(opening?.content).toMatch(/^From the conversation above \(\d+ messages from Ada, .*Bob/);
  });
});
