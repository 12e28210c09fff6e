/** Who gets in, asked of the real hono app with `app.request` (no socket): loopback Host check, WEB_TOKEN by header, link or cookie. */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleApp } from '../../../src/web/console-app.ts';
import { openConsoleHarness, type ConsoleHarness } from './support/console-harness.ts';

const UNAUTHORIZED = { error: { status: 401, message: 'This console needs its WEB_TOKEN (Authorization: Bearer, or ?token= once).' } };

async function answer(app: Hono, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await app.request(path, { headers });
  return { status: response.status, body: await response.json() };
}

describe('console app on loopback, no token', () => {
  let harness: ConsoleHarness;
  let app: Hono;
  beforeAll(async () => {
    harness = await openConsoleHarness({ port: 7420 });
    app = createConsoleApp(harness.options);
  });
  afterAll(async () => harness.close());

  it('lets in a request naming its own address, and refuses any other Host (DNS rebinding) with 421 JSON', async () => {
    expect((await app.request('/api/sessions', { headers: { Host: '127.0.0.1:7420' } })).status).toBe(200);
    expect((await app.request('/api/sessions', { headers: { Host: 'localhost:7420' } })).status).toBe(200);
    const refused = await app.request('/api/sessions', { headers: { Host: 'evil.example:7420' } });
    expect(refused.status).toBe(421);
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
    expect(await refused.json()).toEqual({ error: { status: 421, message: 'This console answers only on its own address.' } });
    expect((await app.request('/api/sessions', { headers: { Host: '127.0.0.1:9999' } })).status).toBe(421);
    expect((await app.request('/api/sessions')).status).toBe(421);
  });

  it('answers /healthz whatever the Host', async () => {
    expect(await answer(app, '/healthz', { Host: 'balancer.internal' })).toEqual({ status: 200, body: { ok: true } });
  });
});

describe('console app with WEB_TOKEN', () => {
  let harness: ConsoleHarness;
  const token = 'console-secret';
  const build = (secret: string) => createConsoleApp({ ...harness.options, host: '0.0.0.0', token: secret, metrics: async () => 'brainstorm_up 1\n' });
  beforeAll(async () => {
    harness = await openConsoleHarness();
  });
  afterAll(async () => harness.close());

  it('answers every refusal, a malformed or foreign scheme included, with the same 401 JSON', async () => {
    const app = build(token);
    for (const authorization of [null, 'Bearer wrong', 'Basic Y29uc29sZTpzZWNyZXQ=', 'Bearer a b']) {
      const response = await app.request('/api/sessions', { headers: authorization === null ? {} : { Authorization: authorization } });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await response.json()).toEqual(UNAUTHORIZED);
    }
    expect((await app.request('/nothing/here')).status).toBe(401);
    expect((await app.request('/metrics')).status).toBe(401);
  });

  it('lets in the Bearer token, also one with characters RFC 6750 does not allow', async () => {
    expect((await build(token).request('/api/sessions', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    const odd = build('p@ss word!');
    expect((await odd.request('/api/sessions', { headers: { Authorization: 'Bearer p@ss word!' } })).status).toBe(200);
    expect((await odd.request('/api/sessions', { headers: { Authorization: 'Bearer p@ss word?' } })).status).toBe(401);
    const metrics = await build(token).request('/metrics', { headers: { Authorization: `Bearer ${token}` } });
    expect(await metrics.text()).toBe('brainstorm_up 1\n');
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('trades ?token= for an HttpOnly cookie with a 303 to the same page without it, then takes the cookie', async () => {
    const app = build(token);
    const redirect = await app.request(`/api/sessions?limit=3&token=${token}`);
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('/api/sessions?limit=3');
    const setCookie = redirect.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    const cookie = setCookie.split(';')[0] as string;
    expect((await app.request('/api/sessions', { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await app.request('/api/sessions?token=wrong')).status).toBe(401);
  });

  it('lets a Bearer header decide even beside a good cookie, as before', async () => {
    const app = build(token);
    const cookie = `brainstorm_console=${token}`;
    expect((await app.request('/api/sessions', { headers: { Cookie: cookie, Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await app.request('/api/sessions', { headers: { Cookie: 'brainstorm_console=wrong' } })).status).toBe(401);
  });

  it('keeps GET /healthz public and private otherwise', async () => {
    const app = build(token);
    expect(await answer(app, '/healthz')).toEqual({ status: 200, body: { ok: true } });
    harness.ready.value = false;
    expect(await answer(app, '/healthz')).toEqual({ status: 503, body: { ok: false, status: 'starting' } });
    harness.ready.value = true;
    expect((await app.request('/healthz', { method: 'POST' })).status).toBe(401);
  });
});
