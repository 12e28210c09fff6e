/**
 * rss_mb_100_sessions as a person running the bot meets it: the app started as `npm start` starts it (the bundle on
 * plain Node, in a process of its own), 100 sessions opened and approved through the local channel, then a person's
 * message in every one at once; the figure is the app process's resident memory once all 300 answers are stored.
 * The fake models, the bench's bookkeeping and the TypeScript loader live in the bench process, not in the figure.
 * rss_mb_100_sessions_settled is the same process 30 s later, its sessions live and the room quiet: what a host holds
 * between bursts, once V8 has returned the burst's garbage.
 */
import { readFileSync } from 'node:fs';
import { replies, startFakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';
import { postJson, waitUntil } from '../tests/support/app-cluster.ts';
import { startAppProcess, waitForHealthy, type AppProcess } from '../tests/support/app-process.ts';
import { createThrowawayPostgres } from '../tests/support/databases.ts';
import { SMALL_HOST_V8_FLAGS } from '../scripts/runtime-flags.mjs';
import { BENCH_PLAN, round, type BenchResult } from './bench-app.ts';

const SESSIONS = 100;
/** How long the settled figure waits after the last answer, the app idle but its 100 sessions live. */
const SETTLE_MS = 30_000;
const PARTICIPANTS = 3;

interface TranscriptLine {
  speaker: { kind: string };
  deliveryStatus: string;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** A /proc/<pid>/status figure in MB (VmRSS now, VmHWM the peak). */
function processMegabytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

async function deliveredAnswers(app: AppProcess, sessionId: string): Promise<number> {
  const messages = await getJson<TranscriptLine[]>(`${app.url}/api/sessions/${encodeURIComponent(sessionId)}/messages`);
  return messages.filter((message) => message.speaker.kind === 'participant' && message.deliveryStatus === 'delivered').length;
}

/** Opens a session through the local channel, approves its plan, and returns its id once the Planner is done. */
async function openSession(app: AppProcess, index: number): Promise<{ roomId: string; sessionId: string }> {
  const person = `Person ${index}`;
  const { roomId } = await postJson<{ roomId: string | null }>(`${app.url}/api/local/sessions`, { topic: `Memory topic ${index}`, name: person });
  if (!roomId) throw new Error('no room opened');
  let sessionId = '';
  await waitUntil(
    async () => {
      const room = await getJson<{ sessionId: string | null }>(`${app.url}/api/rooms/${encodeURIComponent(roomId)}`);
      if (!room.sessionId) return false;
      sessionId = room.sessionId;
      const detail = await getJson<{ session: { status: string } }>(`${app.url}/api/sessions/${encodeURIComponent(sessionId)}`);
      return detail.session.status === 'awaiting_approval';
    },
    'the plan',
    60_000,
    20,
  );
  await postJson(`${app.url}/api/rooms/${encodeURIComponent(roomId)}/commands`, { command: 'approve', name: person });
  return { roomId, sessionId };
}

async function everyoneAnswered(app: AppProcess, sessions: { sessionId: string }[], answers: number): Promise<void> {
  for (const session of sessions) await waitUntil(async () => (await deliveredAnswers(app, session.sessionId)) >= answers, 'the answers', 120_000, 50);
}

async function measure(engine: 'pglite' | 'postgres', smallHost: boolean): Promise<BenchResult[]> {
  const fake = await startFakeOpenRouter({ latencyMs: 50, firstTokenMs: 0 });
  const database = engine === 'postgres' ? await createThrowawayPostgres() : null;
  const app = await startAppProcess({
    ...(smallHost ? { v8Flags: SMALL_HOST_V8_FLAGS } : {}),
    environment: {
      OPENROUTER_API_KEY: 'bench-openrouter-key',
      OPENROUTER_BASE_URL: fake.url,
      SESSION_PLANNER_MAX_QUESTIONS: '0',
      MAX_AI_ROUNDS_WITHOUT_HUMAN: '0',
      MODERATOR_CHECK_INTERVAL: '100000',
      SCRIBE_UPDATE_INTERVAL: '100000',
      TLDR_UPDATE_INTERVAL: '100000',
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  });
  try {
    await waitForHealthy(app.url, 120_000);
    const sessions: { roomId: string; sessionId: string }[] = [];
    for (let index = 0; index < SESSIONS; index += 1) {
      fake.script({ role: 'planner' }, replies.toolCall('start_session', BENCH_PLAN));
      sessions.push(await openSession(app, index));
    }
    await everyoneAnswered(app, sessions, PARTICIPANTS);
    await Promise.all(
      sessions.map((session, index) =>
        postJson(`${app.url}/api/rooms/${encodeURIComponent(session.roomId)}/messages`, { content: 'What is the next step?', name: `Person ${index}` }),
      ),
    );
    await everyoneAnswered(app, sessions, 2 * PARTICIPANTS);
    const suffix = `${engine === 'postgres' ? '_postgres' : ''}${smallHost ? '_small_host' : ''}`;
    const rightAfter = processMegabytes(app.pid, 'VmRSS');
    // V8's memory reducer collects and returns the burst's garbage once allocation has been low for a while (~10 s).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return [
      { name: `rss_mb_100_sessions${suffix}`, value: round(rightAfter, 1), unit: 'MB' },
      { name: `rss_mb_peak_100_sessions${suffix}`, value: round(processMegabytes(app.pid, 'VmHWM'), 1), unit: 'MB' },
      { name: `rss_mb_100_sessions_settled${suffix}`, value: round(processMegabytes(app.pid, 'VmRSS'), 1), unit: 'MB' },
    ];
  } catch (error) {
    process.stderr.write(app.output().slice(-4000));
    throw error;
  } finally {
    await app.stop();
    await fake.close();
    await database?.drop();
  }
}

/** rss_mb_100_sessions: the app process with embedded PGlite in a fresh DATA_DIR, as `npm start` and `npm run start:small-host` run it. */
export const runAppMemoryBench = async (): Promise<BenchResult[]> => [...(await measure('pglite', false)), ...(await measure('pglite', true))];

/** rss_mb_100_sessions_postgres: the app process with its database on the Postgres server, both ways. */
export const runAppMemoryPostgresBench = async (): Promise<BenchResult[]> => [...(await measure('postgres', false)), ...(await measure('postgres', true))];
