/**
 * Through the real gateway: a page that resends a message after a lost answer (same clientId) gets it acted on once,
 * and a message the screen refuses is answered as not posted, so the page can give its text back.
 */
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

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

describe('local channel resends', () => {
  it('acts once on a message sent twice with the same clientId, and refuses a malformed one', async () => {
    const started = (await (await post('/api/local/sessions', { topic: 'Calmer releases', name: 'Ada' })).json()) as { roomId: string };
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(local.name, started.roomId);
    const body = { content: 'We are five engineers.', name: 'Ada', clientId: 'a1b2c3d4-0000-4000-8000-000000000001' };
    expect((await post(`/api/rooms/${started.roomId}/messages`, body)).status).toBe(200);
    expect((await post(`/api/rooms/${started.roomId}/messages`, body)).status).toBe(200);
    await test.settle();
    const stored = await test.app.repositories.messages.listForSession(session!.id);
    expect(stored.filter((message) => message.text === body.content)).toHaveLength(1);
    const refused = await post(`/api/rooms/${started.roomId}/messages`, { ...body, clientId: '../../etc' });
    expect(refused.status).toBe(400);
  });

  it('names a person who gave no name the Host, in the store and in what the models read', async () => {
    const started = (await (await post('/api/local/sessions', { topic: 'Nameless visitors' })).json()) as { roomId: string };
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(local.name, started.roomId);
    expect(session?.createdBy.name).toBe('Host');
    expect((await post(`/api/rooms/${started.roomId}/messages`, { content: 'Who am I to you?' })).status).toBe(200);
    await test.settle();
    const stored = await test.app.repositories.messages.listForSession(session!.id);
    expect(stored.find((message) => message.text === 'Who am I to you?')?.speaker.name).toBe('Host');
    const plannerInput = JSON.stringify(fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)?.body);
    expect(plannerInput).toContain('Answers from Host: Who am I to you?');
    expect(plannerInput).not.toMatch(/from You\b/);
  });

  it("answers a refused message as not posted (too long, a secret), and the room's own limit decides how long is too long", async () => {
    const started = (await (await post('/api/local/sessions', { topic: 'Long reads', name: 'Ada' })).json()) as { roomId: string };
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(local.name, started.roomId);
    const say = async (content: string) => {
      const response = await post(`/api/rooms/${started.roomId}/messages`, { content, name: 'Ada' });
      expect(response.status).toBe(200);
      return ((await response.json()) as { reply: { content: string; notPosted?: boolean } | null }).reply;
    };
    const long = 'A point worth making at length. '.repeat(300).trim();
    expect(long.length).toBeGreaterThan(8000);
    expect(await say(long)).toMatchObject({ notPosted: true, content: expect.stringContaining(`${long.length} characters; the limit is 8000`) });
    const key = `sk-or-v1-${'a1B2c3D4'.repeat(8)}`;
    expect(await say(`Here is my key ${key}, try it`)).toMatchObject({ notPosted: true, content: expect.stringContaining('looks like it contains a secret') });
    await test.settle();
    const texts = (await test.app.repositories.messages.listForSession(session!.id)).map((message) => message.text);
    expect(texts.some((text) => text.startsWith('A point worth making') || text.includes(key))).toBe(false);

    // An admin's larger limit holds in the console too: the route takes what the room takes.
    expect((await say('!config MAX_HUMAN_MESSAGE_CHARS 20000'))?.notPosted).toBeUndefined();
    expect(await say(long)).toBeNull();
    await test.settle();
    expect((await test.app.repositories.messages.listForSession(session!.id)).some((message) => message.text === long)).toBe(true);
  });
});
