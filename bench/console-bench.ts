/**
 * Console benchmarks: how fast a 500-span trace's waterfall is drawn in headless Chromium, and how long a
 * fresh `npm start` takes to answer `/healthz` 200.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/db/create-database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createLogger } from '../src/logging/logger.ts';
import { DocumentsRepository } from '../src/repositories/documents-repository.ts';
import { MessagesRepository } from '../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../src/repositories/sessions-repository.ts';
import { TracesRepository, type SpanRecord } from '../src/repositories/traces-repository.ts';
import { systemClock } from '../src/core/clock.ts';
import { ConsoleQueries } from '../src/services/console/console-queries.ts';
import { BrainstormError } from '../src/core/errors.ts';
import { InMemoryEventBus } from '../src/core/event-bus.ts';
import type { SessionGateway } from '../src/core/ports.ts';
import { createWebServer } from '../src/web/web-server.ts';
import { REPOSITORY_ROOT, startAppProcess, waitForHealthy } from '../tests/support/app-process.ts';
import { bundledEntry } from '../scripts/bundle.mjs';

/** One measured figure. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  message?: string;
}

const SPANS_PER_TURN = 10;
const RENDER_RUNS = 5;

const refusingGateway: SessionGateway = {
  handleMessage: async () => {
    throw new BrainstormError('service_unavailable', 'The bench has no services.');
  },
  screen: async () => null,
  runCommand: async () => {
    throw new BrainstormError('service_unavailable', 'The bench has no services.');
  },
};

/** Spans of one participant turn: agent > generation, two tools, a guardrail, a delivery, and a handoff. */
function turnSpans(traceId: string, sessionId: string, turn: number, origin: number): SpanRecord[] {
  const at = (offset: number) => new Date(origin + turn * 120 + offset);
  const agentId = `${traceId}_a${turn}`;
  const base = { traceId, sessionId, error: null, model: null, inputTokens: 0, outputTokens: 0, costUsd: 0, messageId: null };
  const child = (suffix: string, type: string, name: string, start: number, end: number, extra: Partial<SpanRecord> = {}): SpanRecord => ({
    ...base,
    id: `${agentId}_${suffix}`,
    parentId: agentId,
    type,
    name,
    startedAt: at(start),
    endedAt: at(end),
    data: { agent: `Agent ${turn % 5}` },
    ...extra,
  });
  const generation = {
    model: 'anthropic/claude-sonnet-4.5',
    inputTokens: 1200 + turn,
    outputTokens: 180,
    costUsd: 0.004,
    data: { agent: `Agent ${turn % 5}`, input: [{ role: 'user', content: `turn ${turn}` }], output: [{ role: 'assistant', content: 'An idea.' }] },
  };
  return [
    { ...base, id: agentId, parentId: null, type: 'agent', name: `Agent ${turn % 5}`, startedAt: at(0), endedAt: at(110), data: { name: `Agent ${turn % 5}` } },
    child('g1', 'generation', 'generation', 2, 40, generation),
    child('f1', 'function', 'check_limits', 41, 45),
    child('g2', 'generation', 'generation', 46, 80, generation),
    child('f2', 'function', 'post_to_discord', 81, 90),
    child('r1', 'guardrail', 'no_secrets', 91, 93, { data: { name: 'no_secrets', triggered: turn % 17 === 0 } }),
    child('r2', 'guardrail', 'no_mentions', 93, 95, { data: { name: 'no_mentions', triggered: false } }),
    child('c1', 'custom', 'delivery', 95, 105, { data: { name: 'delivery', data: { chunks: 1 } } }),
    child('c2', 'custom', 'context', 1, 2, { data: { name: 'context', data: { percent: 40 } } }),
    child('h1', 'handoff', 'handoff', 106, 108, { data: { from_agent: `Agent ${turn % 5}`, to_agent: `Agent ${(turn + 1) % 5}` } }),
  ];
}

async function measureTraceRender(): Promise<number> {
  const database = openDatabase({ kind: 'memory' });
  await migrateToLatest(database.db);
  const sessions = new SessionsRepository(database.db);
  const traces = new TracesRepository(database.db);
  const now = systemClock.now();
  await sessions.create(
    {
      id: 'ses_bench',
      parentId: null,
      transport: 'local',
      roomId: 'room_bench',
      roomUrl: null,
      originChannelId: 'local',
      originMessageId: null,
      topic: 'Bench',
      status: 'active',
      createdBy: { id: 'b', name: 'Bench' },
    },
    now,
  );
  const traceId = 'trace_bench';
  await traces.upsertTraces([
    {
      id: traceId,
      sessionId: 'ses_bench',
      name: 'A 500-span turn',
      groupId: 'ses_bench',
      metadata: {},
      startedAt: now,
      endedAt: new Date(now.getTime() + 6_000),
    },
  ]);
  const spans = Array.from({ length: 500 / SPANS_PER_TURN }, (_, turn) => turnSpans(traceId, 'ses_bench', turn, now.getTime())).flat();
  await traces.upsertSpans(spans);
  const queries = new ConsoleQueries(
    { sessions, messages: new MessagesRepository(database.db), documents: new DocumentsRepository(database.db), traces },
    systemClock,
  );
  const server = createWebServer({
    port: 0,
    gateway: refusingGateway,
    queries,
    events: new InMemoryEventBus(),
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  await server.start();
  // Loaded here: the browser helpers import vitest, and start-up is measured without them.
  const { launchBrowser } = await import('../tests/support/browser.ts');
  const browser = await launchBrowser();
  try {
    const timings: number[] = [];
    for (let run = 0; run <= RENDER_RUNS; run += 1) {
      await browser.page.goto('about:blank');
      await browser.page.goto(`${server.url}/#/traces/${traceId}`);
      await browser.page.locator('#waterfall[data-rendered="true"]').waitFor();
      const drawnAt = await browser.page.evaluate(() => performance.getEntriesByName('waterfall-drawn')[0]?.startTime ?? Number.NaN);
      if (process.env.BENCH_VERBOSE)
        console.log(
          await browser.page.evaluate(() =>
            JSON.stringify(
              performance
                .getEntries()
                .filter((entry) => entry.entryType !== 'resource' || entry.name.includes('/api/'))
                .map((entry) => [entry.name.slice(-40), Math.round(entry.startTime), Math.round(entry.duration)]),
            ),
          ),
        );
      // The first run warms the browser's caches; it is not counted.
      if (run > 0) timings.push(drawnAt);
    }
    timings.sort((a, b) => a - b);
    return Math.round(timings[Math.floor(timings.length / 2)] as number);
  } finally {
    await browser.close();
    await server.stop();
    await database.close();
  }
}

/**
 * Start to ready on a fresh DATA_DIR, as after `npm install`: its postinstall builds the bundle of the sources, so it
 * is built here first, outside the time (a start right after a source changed builds it, about 1.3 s more).
 */
async function measureStartup(): Promise<number> {
  await bundledEntry();
  const started = performance.now();
  const app = await startAppProcess();
  try {
    await waitForHealthy(app.url, 120_000, 10);
    return Math.round(performance.now() - started);
  } finally {
    await app.stop();
  }
}

/** Runs the console benchmarks (`npm run bench` adds them to its table). */
export async function runConsoleBench(): Promise<BenchResult[]> {
  // Start-up first, on an idle machine, and whether or not a browser can be driven here.
  const results: BenchResult[] = [];
  if (existsSync(join(REPOSITORY_ROOT, 'src/index.ts'))) results.push({ name: 'startup_ready_ms', value: await measureStartup(), unit: 'ms' });
  try {
    results.push({ name: 'console_trace_render_ms', value: await measureTraceRender(), unit: 'ms' });
  } catch (error) {
    results.push({
      name: 'console_trace_render_error',
      value: 0,
      unit: 'error',
      message: error instanceof Error ? error.message.split('\n')[0] : String(error),
    });
  }
  return results;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  for (const result of await runConsoleBench()) console.log(`${result.name}\t${result.value}\t${result.unit}`);
}
