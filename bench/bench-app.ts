/** The app the session and load benches drive: the real app on PGlite or Postgres, models on the fake OpenRouter. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.ts';
import { buildConfig } from '../src/config/load-config.ts';
import { openDatabase, pgliteThreadHandle, type DatabaseHandle } from '../src/db/create-database.ts';
import type { QueryCounter } from '../src/db/query-counter.ts';
import { createLogger } from '../src/logging/logger.ts';
import { systemClock } from '../src/core/clock.ts';
import { sequentialIds } from '../src/core/ids.ts';
import type { Author } from '../src/core/domain.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres, pgliteTemplateDump } from '../tests/support/databases.ts';
import { MemoryTransport } from '../tests/support/memory-transport.ts';
import { scriptedPlan } from '../tests/support/scripted-plans.ts';
import { fakeEnvironment } from '../tests/support/test-app.ts';
import { startModelProcess, type ModelProcess } from './model-process.ts';

/** One bench figure. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

/** Where a bench app keeps its data: a clone of the tests' PGlite template, one PGlite in a DATA_DIR as `npm start` has, or Postgres. */
export type BenchEngine = 'pglite' | 'pglite-single' | 'postgres';

/**
 * The engine a figure named for PGlite runs on: one PGlite in a DATA_DIR on disk, as `npm start` runs it. The tests'
 * in-memory clone ('pglite') is quicker to set up but is no deployment: its file system keeps the write-ahead log in
 * JavaScript arrays, and at the same point of every run (near a session's 175th turn) one statement stalled it for
 * 60-80 ms: the overhead figure's p99 was that stall.
 */
export function asStartRunsIt(engine: 'pglite' | 'postgres'): BenchEngine {
  return engine === 'pglite' ? 'pglite-single' : engine;
}

/** A plan whose limits no bench reaches. */
export const BENCH_PLAN = scriptedPlan({ maxMessages: 1000, maxTokens: 5_000_000, maxCostUsd: 5, timeoutMinutes: 60 });
/** The person who speaks in every bench. */
export const BENCH_PERSON: Author = { id: 'bench-person', name: 'Bea', isAdmin: true };
let external = 0;

/** A unique transport id for a bench message. */
export function nextExternalId(): string {
  external += 1;
  return `bench-${external}`;
}

/** A running bench app. */
export interface BenchApp {
  app: App;
  transport: MemoryTransport;
  fake: FakeOpenRouter;
  dropDatabase: () => Promise<void>;
}

/** A bench app whose models answer from a process of their own (model-process.ts). */
export interface RemoteModelsBenchApp extends Omit<BenchApp, 'fake'> {
  models: ModelProcess;
}

/** What the helpers below drive: the app and its in-memory transport. */
export type BenchRun = Pick<BenchApp, 'app' | 'transport'>;

/** Optional knobs of a bench app. */
export interface BenchAppOptions {
  /** Counts the statements the app sends to its database. */
  counter?: QueryCounter;
  /** The job worker's poll (the app's own, 250 ms, by default: deliveries wake it anyway). */
  workerPollMs?: number;
  /** Settings over the bench's own (which turn the Moderator's checks, the Scribe and the TLDR off). */
  environment?: Record<string, string>;
  /** The Moderator's checks, the Scribe (with its idea ledger) and the TLDR at the app's defaults, as users run it. */
  rolesOn?: boolean;
}

/** What the benches turn off unless `rolesOn`: each is model calls and work beside the turns a figure measures. */
const ROLES_OFF = { MODERATOR_CHECK_INTERVAL: '100000', SCRIBE_UPDATE_INTERVAL: '100000', TLDR_UPDATE_INTERVAL: '100000' };

async function benchDatabase(engine: BenchEngine, counter: QueryCounter | undefined): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  const options = counter ? { counter } : {};
  if (engine === 'pglite-single') {
    // As `npm start` runs it: one PGlite in a fresh DATA_DIR, copied from the migrated template (no initdb here).
    const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-bench-'));
    const database = openDatabase({ kind: 'pglite', directory: join(dataDir, 'db') }, options);
    return { database, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  // As the app runs it: PGlite on a thread of its own, started from a dump of the tests' migrated template.
  if (engine === 'pglite') return { database: pgliteThreadHandle({ loadDataDir: await pgliteTemplateDump() }, options), drop: async () => undefined };
  const throwaway = await createThrowawayPostgres();
  return { database: openDatabase({ kind: 'postgres', url: throwaway.url }, options), drop: () => throwaway.drop() };
}

async function startAppOn(modelsUrl: string, engine: BenchEngine, aiRounds: number, options: BenchAppOptions): Promise<Omit<BenchApp, 'fake'>> {
  const transport = new MemoryTransport();
  const environment = fakeEnvironment(modelsUrl, {
    SESSION_PLANNER_MAX_QUESTIONS: '0',
    MAX_AI_ROUNDS_WITHOUT_HUMAN: String(aiRounds),
    ...(options.rolesOn ? {} : ROLES_OFF),
    ...options.environment,
  });
  const { database, drop } = await benchDatabase(engine, options.counter);
  const app = await createApp({
    config: buildConfig(environment),
    clock: systemClock,
    ids: sequentialIds(),
    logger: createLogger({ level: 'silent', secrets: [] }),
    database,
    transports: [transport],
    ...(options.workerPollMs ? { workerPollMs: options.workerPollMs } : {}),
  });
  await app.start();
  return { app, transport, dropDatabase: drop };
}

/** Starts the app with the models answering after `latencyMs`; `aiRounds` AI rounds may follow a person's message. */
export async function startBenchApp(latencyMs: number, engine: BenchEngine = 'pglite', aiRounds = 0, options: BenchAppOptions = {}): Promise<BenchApp> {
  const fake = await startFakeOpenRouter({ latencyMs, firstTokenMs: 0 });
  return { ...(await startAppOn(fake.url, engine, aiRounds, options)), fake };
}

/** As startBenchApp, with the models in a process of their own, as real models run on another machine. */
export async function startRemoteModelsBenchApp(
  latencyMs: number,
  engine: BenchEngine = 'pglite',
  options: BenchAppOptions = {},
): Promise<RemoteModelsBenchApp> {
  const models = await startModelProcess({ latencyMs, firstTokenMs: 0 });
  return { ...(await startAppOn(models.url, engine, 0, options)), models };
}

/** Stops the app, the fake models and drops the database. */
export async function stopBenchApp(bench: BenchApp | RemoteModelsBenchApp): Promise<void> {
  await bench.app.stop();
  await ('fake' in bench ? bench.fake.close() : bench.models.close());
  await bench.dropDatabase();
}

/** Resolves when `count` participant messages were stored in `sessionId` after this call. */
export function participantMessages(app: App, sessionId: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const stop = app.events.subscribe((event) => {
      if (
        event.type !== 'message' ||
        event.message.sessionId !== sessionId ||
        event.message.speaker.kind !== 'participant' ||
        event.message.deliveryStatus !== 'pending'
      )
        return;
      seen += 1;
      if (seen >= count) {
        stop();
        resolve();
      }
    });
  });
}

/** A session started by a person's topic and approved, its opening answers stored. */
export async function activeSession(bench: BenchApp | RemoteModelsBenchApp): Promise<{ sessionId: string; roomId: string }> {
  const plan = replies.toolCall('start_session', BENCH_PLAN);
  await ('fake' in bench ? bench.fake.script({ role: 'planner' }, plan) : bench.models.script({ role: 'planner' }, plan));
  const externalId = nextExternalId();
  const topic = `Bench topic ${externalId}`;
  await bench.app.gateway.handleMessage({ transport: 'memory', roomId: null, channelId: 'bench', externalId, author: BENCH_PERSON, content: topic });
  const roomId = bench.transport.rooms.find((room) => room.title === topic)!.roomId;
  const session = (await bench.app.repositories.sessions.findByRoom('memory', roomId))!;
  for (let attempt = 0; attempt < 2000 && (await bench.app.repositories.sessions.findById(session.id))?.status !== 'awaiting_approval'; attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const opened = participantMessages(bench.app, session.id, 3);
  await bench.app.gateway.runCommand({ transport: 'memory', roomId, channelId: 'bench', author: BENCH_PERSON, name: 'approve', args: '' });
  await opened;
  return { sessionId: session.id, roomId };
}

/** `count` active sessions made directly (no Planner run), each in a room of its own. */
export async function activeSessions(bench: BenchRun, count: number, prefix: string): Promise<{ sessionId: string; roomId: string }[]> {
  const sessions: { sessionId: string; roomId: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const room = await bench.transport.openRoom({ originChannelId: 'bench', originMessageId: null, title: `${prefix} ${index}` });
    const created = await bench.app.repositories.sessions.create(
      {
        id: `${prefix.toLowerCase()}_${index}`,
        parentId: null,
        transport: 'memory',
        roomId: room.roomId,
        roomUrl: null,
        originChannelId: 'bench',
        originMessageId: null,
        topic: `${prefix} topic ${index}`,
        status: 'awaiting_approval',
        createdBy: { id: BENCH_PERSON.id, name: BENCH_PERSON.name },
      },
      new Date(),
    );
    await bench.app.services.lifecycle.activate(created.id, BENCH_PLAN);
    sessions.push({ sessionId: created.id, roomId: room.roomId });
  }
  return sessions;
}

/** Sends a person's message (`author`'s, the bench person's by default) to a session. */
export async function say(bench: BenchRun, session: { roomId: string }, content = 'What is the next step?', author: Author = BENCH_PERSON): Promise<void> {
  await bench.app.gateway.handleMessage({
    transport: 'memory',
    roomId: session.roomId,
    channelId: 'bench',
    externalId: nextExternalId(),
    author,
    content,
  });
}

/** How long `firstAnswerTo` waits before it stops the bench with an error instead of waiting for ever. */
const ANSWER_TIMEOUT_MS = 30_000;

/**
 * Resolves with the time (`performance.now()`) the first participant answer replying to the person's message saying
 * `text` was stored; call it before the message is sent. Rejects after 30 s.
 */
export function firstAnswerTo(bench: BenchRun, sessionId: string, text: string): Promise<number> {
  let personMessageId: number | null = null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: no answer to "${text}" within ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS);
    const stop = bench.app.events.subscribe((event) => {
      if (event.type !== 'message' || event.message.sessionId !== sessionId || event.message.deliveryStatus === 'delivered') return;
      if (event.message.speaker.kind === 'human' && event.message.text === text) personMessageId = event.message.id;
      if (event.message.speaker.kind !== 'participant' || personMessageId === null || !event.message.replyTo.includes(personMessageId)) return;
      clearTimeout(timer);
      stop();
      resolve(performance.now());
    });
  });
}

/** How long a timed turn may take before the bench stops with an error instead of waiting for ever. */
const TURN_TIMEOUT_MS = 60_000;

/**
 * Milliseconds from a person's message until all three participants' answers are stored. Throws when they do not come
 * within a minute: the session ended (its plan allows `BENCH_PLAN`'s messages) or the app stalled, and a bench that
 * waits silently for ever reports neither.
 */
export async function timedTurn(bench: BenchRun, session: { sessionId: string; roomId: string }): Promise<number> {
  const answered = participantMessages(bench.app, session.sessionId, 3);
  const started = performance.now();
  await say(bench, session);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`bench: no three answers in session ${session.sessionId} within ${TURN_TIMEOUT_MS / 1000} s (its plan ended it, or the app stalled)`));
    }, TURN_TIMEOUT_MS);
  });
  try {
    await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  return performance.now() - started;
}

/** The value at `fraction` of the sorted values. */
export const percentile = (values: number[], fraction: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * fraction))] ?? 0;

/** Rounds to `digits` decimals. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
