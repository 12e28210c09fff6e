/** The real hono app asked with `app.request` (no socket): live events, static files, and the shapes of 4xx/5xx answers. */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleQueries } from '../../../src/services/console/console-queries.ts';
import { createConsoleApp } from '../../../src/web/console-app.ts';
import { openConsoleHarness, type ConsoleHarness } from './support/console-harness.ts';

const HOST = { Host: '127.0.0.1:7420' };

function get(app: Hono, path: string, init: RequestInit = {}): Promise<Response> {
  return Promise.resolve(app.request(path, { ...init, headers: { ...HOST, ...init.headers } }));
}

function post(app: Hono, path: string, body: string, type = 'application/json'): Promise<Response> {
  return Promise.resolve(app.request(path, { method: 'POST', body, headers: { ...HOST, 'Content-Type': type } }));
}

async function readText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  return done ? '' : new TextDecoder().decode(value);
}

let harness: ConsoleHarness;
let app: Hono;
const shutdown = new AbortController();
beforeAll(async () => {
  harness = await openConsoleHarness({ port: 7420 });
  app = createConsoleApp({ ...harness.options, shutdown: shutdown.signal });
});
afterAll(async () => harness.close());

describe('live events (streamSSE)', () => {
  it('answers an event stream, retry line first, then only the events of its session and room', async () => {
    const room = harness.transport.adoptRoom('room_live', 'Live');
    const response = await get(app, `/api/events?sessionId=ses_live&roomId=${room.roomId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readText(reader)).toBe('retry: 2000\n\n');
    harness.events.publish({ type: 'trace', sessionId: 'ses_other', traceId: 'ignored' });
    harness.events.publish({ type: 'trace', sessionId: 'ses_live', traceId: 'trace_live' });
    expect(await readText(reader)).toBe(`event: trace\ndata: ${JSON.stringify({ type: 'trace', sessionId: 'ses_live', traceId: 'trace_live' })}\n\n`);
    harness.transport.postNotice('room_elsewhere', 'not for this page');
    harness.transport.postNotice(room.roomId, 'for this page');
    const notice = await readText(reader);
    expect(notice).toMatch(/^event: local-notice\ndata: \{.*"content":"for this page".*\}\n\n$/);
    await reader.cancel();
  });

  it('ends open streams when the server stops', async () => {
    const stopping = new AbortController();
    const stoppable = createConsoleApp({ ...harness.options, shutdown: stopping.signal });
    const reader = ((await get(stoppable, '/api/events')).body as ReadableStream<Uint8Array>).getReader();
    expect(await readText(reader)).toBe('retry: 2000\n\n');
    stopping.abort();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});

describe('static files (serveStatic)', () => {
  it('serves the page, its assets and the icon, revalidated each time, with the security headers', async () => {
    const page = await get(app, '/');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('/assets/app.js');
    const script = await get(app, '/assets/waterfall.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('export');
    expect((await get(app, '/assets/styles.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get(app, '/favicon.ico')).headers.get('content-type')).toContain('image/svg+xml');
  });

  it('answers HEAD with the length and no body', async () => {
    const head = await get(app, '/assets/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it('serves the vendored markdown-it build without its source map pointer', async () => {
    const vendor = await get(app, '/assets/markdown-it.js');
    expect(vendor.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const text = await vendor.text();
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).not.toContain('sourceMappingURL');
  });

  it('serves nothing outside the asset names: traversal, other cases and types, folders', async () => {
    for (const path of ['/assets/..%2Fweb-server.ts', '/assets/%2e%2e/web-server.ts', '/assets/App.js', '/assets/nothing.js', '/assets/', '/web-server.ts']) {
      const response = await get(app, path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.json()).toEqual({ error: { status: 404, message: 'Not found.' } });
    }
  });
});

describe('answers and their shapes', () => {
  it('answers an unknown path 404 JSON, never cached', async () => {
    const missing = await get(app, '/api/nothing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(await missing.json()).toEqual({ error: { status: 404, message: 'Not found.' } });
    expect(await (await get(app, '/api/sessions/ses_none')).json()).toEqual({ error: { status: 404, message: 'No such session.' } });
  });

  it('answers another method on a known path 405, HEAD like GET, and takes a trailing slash', async () => {
    const refused = await post(app, '/api/sessions', '{}');
    expect(refused.status).toBe(405);
    expect(await refused.json()).toEqual({ error: { status: 405, message: 'Method not allowed.' } });
    expect((await get(app, '/api/rooms/room_x/messages')).status).toBe(405);
    const head = await get(app, '/api/sessions', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect((await get(app, '/api/sessions/')).status).toBe(200);
  });

  it('decodes path parameters', async () => {
    await harness.sessions.create(
      {
        id: 'ses 1',
        parentId: null,
        transport: 'local',
        roomId: 'room_spaced',
        roomUrl: null,
        originChannelId: 'local',
        originMessageId: null,
        topic: 'Spaced id',
        status: 'active',
        createdBy: { id: 'local:you', name: 'You' },
      },
      harness.clock.now(),
    );
    expect((await (await get(app, '/api/sessions/ses%201')).json()) as { session: { topic: string } }).toMatchObject({ session: { topic: 'Spaced id' } });
  });

  it('refuses bodies that are not a JSON object of at most 64 KiB', async () => {
    const cases: Array<[Response, number, string]> = [
      [await post(app, '/api/local/sessions', 'topic=x', 'application/x-www-form-urlencoded'), 415, 'Send a JSON body (Content-Type: application/json).'],
      [await post(app, '/api/local/sessions', JSON.stringify({ topic: 'x'.repeat(70_000) })), 413, 'The request body is too large (64 KiB at most).'],
      [await post(app, '/api/local/sessions', '{"topic":'), 400, 'The request body is not valid JSON.'],
      [await post(app, '/api/local/sessions', '["topic"]'), 400, 'The request body must be a JSON object.'],
      [await post(app, '/api/local/sessions', '{}'), 400, '"topic" must be a non-empty string.'],
    ];
    for (const [response, status, message] of cases) expect(await response.json()).toEqual({ error: { status, message } });
  });

  it('answers a failure it did not expect 500 JSON, without its details', async () => {
    class FailingQueries extends ConsoleQueries {
      override async listSessions(): Promise<never> {
        throw new Error('connection to the database lost: password=hunter2');
      }
    }
    const failing = createConsoleApp({ ...harness.options, queries: new FailingQueries(harness, harness.clock) });
    const response = await get(failing, '/api/sessions');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { status: 500, message: 'The console could not answer; the details are in the log.' } });
  });
});
