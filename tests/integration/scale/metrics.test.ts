import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../../support/test-app.ts';
import { openConsoleHarness } from '../web/support/console-harness.ts';

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

/** The value of one series (`name{labels}`), or undefined. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_][a-z0-9_]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  it('shows turn latency, model errors per endpoint, the job queue, job failures and sessions owned, in the Prometheus text format', async () => {
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 12 }, () => replies.httpError(500)));
    await test.command(room, 'approve');
    await test.settle();

    const text = await test.app.services.metrics.render();
    for (const line of text.trimEnd().split('\n'))
      // Prometheus metric names: [a-zA-Z_:][a-zA-Z0-9_:]*; ours are lower case.
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-z_][a-z0-9_]* .+|[a-z_][a-z0-9_]*(\{([a-z_]+="[^"\n]*",?)*\})? -?[0-9.e+-]+|[a-z_][a-z0-9_]*\{.*le="\+Inf".*\} \d+)$/,
      );
    expect(text).toContain('# TYPE brainstorm_turn_duration_seconds histogram');
    expect(series(text, 'brainstorm_turn_duration_seconds_count', { outcome: 'answered' })).toBeGreaterThanOrEqual(2);
    expect(series(text, 'brainstorm_turn_duration_seconds_bucket', { outcome: 'answered', le: '+Inf' })).toBe(
      series(text, 'brainstorm_turn_duration_seconds_count', { outcome: 'answered' }),
    );
    const endpoint = new URL(fake.url).host;
    expect(series(text, 'brainstorm_model_errors_total', { endpoint })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE brainstorm_model_queue_depth gauge');
    expect(series(text, 'brainstorm_model_queue_depth', { endpoint })).toBe(0);
    expect(text).not.toContain('test-openrouter-key');
    expect(series(text, 'brainstorm_sessions_owned')).toBe(1);
    expect(series(text, 'brainstorm_sessions', { status: 'active' })).toBe(1);
    expect(text).toContain('# TYPE brainstorm_job_queue_depth gauge');
    expect(series(text, 'brainstorm_job_queue_depth', { state: 'scheduled' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE brainstorm_job_failures_total counter');
    // The worker's lanes: deliveries have slots of their own, which no Scribe pass can take.
    expect(text).toContain('# TYPE brainstorm_job_slots_busy gauge');
    expect(series(text, 'brainstorm_job_slots', { lane: 'rooms' })).toBe(32);
    expect(series(text, 'brainstorm_job_slots', { lane: 'records' })).toBe(16);
    expect(series(text, 'brainstorm_job_slots_busy', { lane: 'records' })).toBe(0);
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(series(text, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(series(text, 'nodejs_heap_size_used_bytes')).toBeLessThanOrEqual(series(text, 'nodejs_heap_size_total_bytes') ?? 0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    const loop = ['p50', 'p99', 'max'].map((figure) => series(text, `nodejs_eventloop_lag_${figure}_seconds`) ?? -1);
    expect(loop[0]).toBeGreaterThanOrEqual(0);
    expect(loop[0]).toBeLessThanOrEqual(loop[1] ?? 0);
    expect(loop[1]).toBeLessThanOrEqual(loop[2] ?? 0);
    // The app's embedded PGlite: its one connection's use, waits by priority.
    expect(text).toContain('# TYPE brainstorm_database_connection_busy_seconds_total counter');
    expect(series(text, 'brainstorm_database_connection_busy_seconds_total')).toBeGreaterThan(0);
    expect(series(text, 'brainstorm_database_connection_waits_total', { priority: 'turn' })).toBeGreaterThan(10);
    expect(series(text, 'brainstorm_database_connection_waits_total', { priority: 'background' })).toBeGreaterThanOrEqual(0);
    expect(series(text, 'brainstorm_database_connection_wait_seconds_total', { priority: 'turn' })).toBeGreaterThanOrEqual(0);
    // Its checkpoints, which no process of its own makes (none yet: the first poll comes after 30 s).
    expect(text).toContain('# TYPE brainstorm_database_checkpoints_total counter');
    expect(series(text, 'brainstorm_database_checkpoints_total')).toBe(0);
    expect(text).toContain('# TYPE brainstorm_database_log_since_checkpoint_bytes gauge');
  });

  it('is served behind the console token while /healthz stays public', async () => {
    const harness = await openConsoleHarness({ token: 'console-secret', metrics: async () => 'brainstorm_sessions_owned 2\n' });
    await harness.server.start();
    try {
      expect((await fetch(`${harness.server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${harness.server.url}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${harness.server.url}/metrics`, { headers: { Authorization: 'Bearer console-secret' } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(await scraped.text()).toBe('brainstorm_sessions_owned 2\n');
    } finally {
      await harness.close();
    }
  });
});
