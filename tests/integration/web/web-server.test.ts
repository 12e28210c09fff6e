import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionSummary, TraceDetail, TraceListItem } from '../../../src/services/console/console-types.ts';
import type { FeedItem } from '../../../src/web/room-feed.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/create-database.ts';
import { migrateToLatest } from '../../../src/db/migrate.ts';
import { WebServerError } from '../../../src/web/web-errors.ts';
import { openConsoleHarness, type ConsoleHarness } from './support/console-harness.ts';

async function getJson<T>(harness: ConsoleHarness, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${harness.server.url}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

async function postJson<T>(harness: ConsoleHarness, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${harness.server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
}

function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
}

type Feed = { detail: SessionDetail; items: FeedItem[] };

describe('console server', () => {
  let harness: ConsoleHarness;

  beforeAll(async () => {
    harness = await openConsoleHarness();
    await harness.server.start();
  });
  afterAll(async () => harness.close());

  it('answers /healthz 503 until ready, then 200', async () => {
    harness.ready.value = false;
    expect((await getJson(harness, '/healthz')).status).toBe(503);
    harness.ready.value = true;
    expect(await getJson(harness, '/healthz')).toEqual({ status: 200, body: { ok: true } });
  });

  it('serves its own assets with a self-only Content-Security-Policy, and nothing outside them', async () => {
    const page = await fetch(`${harness.server.url}/`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('/assets/app.js');
    const script = await fetch(`${harness.server.url}/assets/waterfall.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(`${harness.server.url}/assets/..%2Fweb-server.ts`)).status).toBe(404);
    expect((await fetch(`${harness.server.url}/assets/nothing.js`)).status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding) on loopback', async () => {
    const url = new URL(harness.server.url);
    expect(await rawGet(`${harness.server.url}/api/sessions`, { Host: 'evil.example' })).toBe(421);
    expect(await rawGet(`${harness.server.url}/api/sessions`, { Host: `localhost:${url.port}` })).toBe(200);
  });

  it('tells the page about demo mode', async () => {
    const { body } = await getJson<{ demoMode: boolean; demoNotice: string }>(harness, '/api/status');
    expect(body.demoMode).toBe(true);
    expect(body.demoNotice).toContain('OPENROUTER_API_KEY');
  });

  it('runs a local session: start, answer the Planner, approve, three participants answer', async () => {
    const started = await postJson<{ roomId: string }>(harness, '/api/local/sessions', { topic: 'Shipping weekly', name: 'Ada' });
    expect(started.status).toBe(200);
    // The start answers once the room is open; the Planner's questions follow in the background.
    await harness.gateway.settled();
    const room = await getJson<{ sessionId: string }>(harness, `/api/rooms/${started.body.roomId}`);
    const sessionId = room.body.sessionId;
    let feed = (await getJson<Feed>(harness, `/api/sessions/${sessionId}/feed`)).body;
    expect(feed.detail.session.status).toBe('planning');
    expect(feed.detail.session.createdBy).toBe('Ada');
    expect(feed.detail.session.plannerQuestions).toHaveLength(2);

    await postJson(harness, `/api/rooms/${started.body.roomId}/messages`, { content: 'Five engineers, late nights.', name: 'Ada' });
    feed = (await getJson<Feed>(harness, `/api/sessions/${sessionId}/feed`)).body;
    expect(feed.detail.session.status).toBe('awaiting_approval');
    const planItem = feed.items.at(-1);
    expect(planItem?.kind === 'message' && planItem.actions).toEqual(['approve_plan']);
    // Every delivery was paired with its stored message: nothing shows twice.
    expect(feed.items.every((item) => item.kind === 'message')).toBe(true);

    const approved = await postJson<{ reply: { content: string } }>(harness, `/api/rooms/${started.body.roomId}/commands`, {
      command: '!approve',
      name: 'Ada',
    });
    expect(approved.body.reply.content).toBe('Plan approved by Ada.');
    feed = (await getJson<Feed>(harness, `/api/sessions/${sessionId}/feed`)).body;
    const speakers = feed.items.flatMap((item) => (item.kind === 'message' ? [item.message.speaker.name] : []));
    expect(speakers).toEqual(['Ada', 'Planner', 'Ada', 'Planner', 'Claude', 'ChatGPT', 'Grok']);
    expect(feed.detail.limits.find((limit) => limit.name === 'messages')).toEqual({ name: 'messages', used: 7, limit: 30, percent: 23.3 });
    expect(feed.detail.record?.content).toContain('three participants spoke');

    const list = (await getJson<SessionSummary[]>(harness, '/api/sessions')).body;
    expect(list[0]).toMatchObject({ id: sessionId, status: 'active', participants: ['ChatGPT', 'Claude', 'Grok'], messageCount: 7 });
  });

  it('takes messages for a local session from before a restart, whose room this process has not seen', async () => {
    const now = harness.clock.now();
    await harness.sessions.create(
      {
        id: 'ses_old',
        parentId: null,
        transport: 'local',
        roomId: 'room_before_restart',
        roomUrl: null,
        originChannelId: 'local',
        originMessageId: null,
        topic: 'Old topic',
        status: 'active',
        createdBy: { id: 'local:you', name: 'You' },
      },
      now,
    );
    const answer = await postJson<{ reply: { content: string } }>(harness, '/api/rooms/room_before_restart/commands', { command: 'status' });
    expect(answer.body.reply.content).toBe('Status: active, 0 messages.');
    expect(harness.transport.getRoom('room_before_restart')?.title).toBe('Old topic');
  });

  it('maps gateway errors to HTTP answers with the person-facing message', async () => {
    const roomId = harness.transport.listRooms().find((room) => room.title === 'Shipping weekly')?.roomId as string;
    const answer = await postJson<{ error: { message: string } }>(harness, `/api/rooms/${roomId}/messages`, { content: '!nope' });
    expect(answer).toEqual({ status: 400, body: { error: { status: 400, message: 'Unknown command !nope.' } } });
    expect((await postJson(harness, `/api/rooms/${roomId}/commands`, { command: 'approve' })).status).toBe(409);
    expect((await postJson(harness, '/api/rooms/room_404/messages', { content: 'hi' })).status).toBe(404);
    expect((await postJson(harness, '/api/local/sessions', { topic: '   ' })).status).toBe(400);
  });

  it('lists, opens, searches and exports traces linked to their messages', async () => {
    const session = (await getJson<SessionSummary[]>(harness, '/api/sessions')).body.find((entry) => entry.topic === 'Shipping weekly') as SessionSummary;
    const traces = (await getJson<TraceListItem[]>(harness, `/api/traces?sessionId=${session.id}`)).body;
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ sessionTopic: 'Shipping weekly', spanCount: 10, inputTokens: 2703, outputTokens: 363 });
    const detail = (await getJson<TraceDetail>(harness, `/api/traces/${traces[0]?.id}`)).body;
    const generations = detail.spans.filter((span) => span.kind === 'generation');
    expect(generations.map((span) => [span.agentName, span.inputTokens, span.message?.speakerName])).toEqual([
      ['Claude', 900, 'Claude'],
      ['ChatGPT', 901, 'ChatGPT'],
      ['Grok', 902, 'Grok'],
    ]);
    expect(detail.totals.guardrailTrips).toBe(1);
    // The waterfall comes without payloads; one span's input and output come on request.
    expect(generations.every((span) => span.hasPayload && span.input === null)).toBe(true);
    const full = (await getJson<TraceDetail['spans'][number]>(harness, `/api/traces/${traces[0]?.id}/spans/${generations[0]?.id}`)).body;
    expect(full.output).toEqual([{ role: 'assistant', content: expect.stringContaining('Claude (turn 1)') }]);
    expect(full.data).not.toHaveProperty('input');
    expect((await getJson<TraceListItem[]>(harness, '/api/traces?model=x-ai/grok-4')).body).toHaveLength(1);
    expect((await getJson<TraceListItem[]>(harness, '/api/traces?model=grok')).body).toHaveLength(0);
    expect((await getJson<TraceListItem[]>(harness, '/api/traces?agent=Grok&text=friday')).body).toHaveLength(1);
    expect((await getJson<TraceListItem[]>(harness, '/api/traces?errors=1')).body).toHaveLength(0);
    const exported = await fetch(`${harness.server.url}/api/traces/${traces[0]?.id}/export`);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="trace-trace_turn_/);
    expect(((await exported.json()) as { spans: unknown[] }).spans).toHaveLength(10);
    expect((await getJson(harness, '/api/traces/none')).status).toBe(404);
  });

  it('streams the events of one session over SSE', async () => {
    const session = (await getJson<SessionSummary[]>(harness, '/api/sessions')).body.find((entry) => entry.topic === 'Shipping weekly') as SessionSummary;
    const response = await fetch(`${harness.server.url}/api/events?sessionId=${session.id}`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the retry line: the stream is subscribed
    harness.events.publish({ type: 'trace', sessionId: 'another', traceId: 'ignored' });
    harness.events.publish({ type: 'trace', sessionId: session.id, traceId: 'trace_live' });
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    expect(text).toContain('event: trace');
    expect(text).toContain('trace_live');
    expect(text).not.toContain('ignored');
    await reader.cancel();
  });
});

describe('console access', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = openDatabase({ kind: 'memory' });
    await migrateToLatest(database.db);
  });
  afterAll(async () => database.close());

  it('refuses to start on a non-loopback host without WEB_TOKEN', async () => {
    const harness = await openConsoleHarness({ host: '0.0.0.0' }, database);
    const failure = await harness.server.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebServerError);
    expect((failure as WebServerError).code).toBe('web_token_required');
    await harness.close();
  });

  it('needs the token on every request when one is set: Bearer, or ?token= once then a cookie', async () => {
    const harness = await openConsoleHarness({ token: 'console-secret' }, database);
    await harness.server.start();
    try {
      expect((await fetch(`${harness.server.url}/api/sessions`)).status).toBe(401);
      // A load balancer or uptime check has no token: /healthz answers without it and says nothing private.
      const health = await fetch(`${harness.server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
      expect((await fetch(`${harness.server.url}/api/sessions`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${harness.server.url}/api/sessions`, { headers: { Authorization: 'Bearer console-secret' } })).status).toBe(200);
      const redirect = await fetch(`${harness.server.url}/?token=console-secret`, { redirect: 'manual' });
      expect(redirect.status).toBe(303);
      expect(redirect.headers.get('location')).toBe('/');
      const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0] as string;
      expect(redirect.headers.get('set-cookie')).toContain('HttpOnly');
      expect((await fetch(`${harness.server.url}/api/sessions`, { headers: { Cookie: cookie } })).status).toBe(200);
    } finally {
      await harness.close();
    }
  });
});
