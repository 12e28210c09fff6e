/**
 * `npm run chaos`: a team's bad day, scripted. Rooms full of people typing and giving commands while the app is
 * killed (SIGKILL) and started again every round or two; then a clean stop, and the checks of chaos-checks.ts. Not part
 * of `npm test` (it runs for minutes, on purpose at random): a release candidate, or a change to delivery, jobs or the
 * coordinator, should pass a few seeds of it. It found a crash that stopped the job worker for good, which no test had.
 *
 *   npm run chaos -- [--engine pglite|postgres] [--models demo|literal] [--rooms 3] [--rounds 8] [--seed 1] [--kill 0.4]
 *                    [--processes 2 (Postgres only: each request and each kill goes to one of them at random)]
 *
 * `literal` models are the fake OpenRouter's model that ignores our prompts and says its answer again; `demo` is the
 * embedded simulator `npm start` uses without a key. Exits 1 when an invariant broke, printing each problem.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseLocationFor, openDatabase } from '../../src/db/create-database.ts';
import { startFakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { chaosProblems, failedJobs, type RoomView, type SentMessage } from './chaos-checks.ts';
import { startAppProcess, type AppProcess } from './chaos-process.ts';
import { DAY_OPTIONS, pickWith, readDayOptions, seeded, SAYINGS, TOPICS } from './chaos-day.ts';

const options = readDayOptions(
  () => parseArgs({ options: { ...DAY_OPTIONS, port: { type: 'string', default: '7571' }, processes: { type: 'string', default: '1' } } }).values,
  'npm run chaos -- [--engine pglite|postgres] [--models demo|literal] [--rooms 3] [--rounds 8] [--seed 1] [--kill 0.4] [--processes 2 (Postgres only)]',
);

const random = seeded(Number(options.seed));
const pick = pickWith(random);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const COMMANDS = [
  ['focus', 'the cost'],
  ['status', ''],
  ['pause', ''],
  ['continue', ''],
  ['explore', ''],
  ['summary', ''],
  ['ideas', ''],
] as const;

const processCount = Number(options.processes);
if (processCount > 1 && options.engine !== 'postgres') throw new Error('several processes share a Postgres server: add --engine postgres');
const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-chaos-'));
const postgres = options.engine === 'postgres' ? await createThrowawayPostgres() : null;
const models = options.models === 'literal' ? await startFakeOpenRouter({ fallback: 'literal' }) : null;
const environment: Record<string, string> = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DEMO_PACE: 'fast',
  SESSION_PLANNER_MAX_QUESTIONS: '0',
  ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  ...(models ? { OPENROUTER_API_KEY: 'sk-or-chaos-123', OPENROUTER_BASE_URL: models.url } : {}),
};
const serverErrors: string[] = [];
const sent: SentMessage[] = [];
/** Process `index`: a port and a DATA_DIR of its own (the first keeps the run's, which the checks read on PGlite). */
const startProcess = (index: number) =>
  startAppProcess(
    { ...environment, DATA_DIR: index === 0 ? dataDir : mkdtempSync(join(tmpdir(), 'brainstorm-chaos-')) },
    Number(options.port) + index,
    join(dataDir, `app-${index}.log`),
  );
const apps: AppProcess[] = [];
for (let index = 0; index < processCount; index += 1) apps.push(await startProcess(index));
let kills = 0;

/** A request to one of the apps at random; null when it is down (killed), so the caller can try again once it is back. */
async function call(path: string, body?: unknown): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(
      `${pick(apps).url}${path}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    if (response.status >= 500) serverErrors.push(`${response.status} from ${path}: ${await response.text()}`);
    return response.ok ? ((await response.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Sends a person's message with a client id, again after a restart until the app answers, as the console does. */
async function say(roomId: string, content: string): Promise<void> {
  const clientId = `chaos-${options.seed}-${sent.length}`;
  const message: SentMessage = { clientId, roomId, accepted: false };
  // Two people, so one speaks while the room still answers the other.
  const name = pick(['Dana', 'Eli']);
  sent.push(message);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const answer = await call(`/api/rooms/${roomId}/messages`, { content, name, clientId });
    if (answer) return void (message.accepted = answer.reply === null);
    await sleep(500);
  }
}

async function openRoom(topic: string): Promise<string> {
  for (;;) {
    const opened = await call('/api/local/sessions', { topic, name: 'Dana' });
    if (typeof opened?.roomId === 'string') return opened.roomId;
    await sleep(500);
  }
}

const rooms: string[] = [];
for (let index = 0; index < Number(options.rooms); index += 1) rooms.push(await openRoom(TOPICS[index % TOPICS.length]!));
await sleep(3000);
for (const roomId of rooms) await call(`/api/rooms/${roomId}/commands`, { command: 'approve', name: 'Dana' });

for (let round = 0; round < Number(options.rounds); round += 1) {
  for (const roomId of rooms) {
    const roll = random();
    if (roll < 0.65) {
      await say(roomId, pick(SAYINGS));
      // Now and then someone follows up while the room still answers.
      if (random() < 0.3) await sleep(300 + random() * 1200).then(() => say(roomId, pick(SAYINGS)));
    } else if (roll < 0.9) {
      const [command, args] = pick(COMMANDS);
      await call(`/api/rooms/${roomId}/commands`, { command, args, name: 'Dana' });
    }
  }
  await sleep(500 + random() * 2500);
  if (random() < Number(options.kill)) {
    const index = Math.floor(random() * apps.length);
    await apps[index]!.kill();
    kills += 1;
    apps[index] = await startProcess(index);
  }
  process.stdout.write(`round ${round + 1}: ${sent.length} messages sent, ${kills} kills\n`);
}

// Every room goes on (a paused one too), then the app settles and stops cleanly, as a deploy stops it.
for (const roomId of rooms) await call(`/api/rooms/${roomId}/commands`, { command: 'continue', name: 'Dana' });
await sleep(15_000);
const views = (await Promise.all(rooms.map((roomId) => call(`/api/rooms/${roomId}`)))) as unknown as RoomView[];
for (const app of apps) await app.stop();

const database = openDatabase(databaseLocationFor(postgres?.url, dataDir));
const checked = await chaosProblems(database.db, sent, views.filter(Boolean), new Date());
const problems = [...serverErrors, ...checked.problems];
const failures = await failedJobs(database.db);
await database.close();
await models?.close();
await postgres?.drop();

process.stdout.write(
  `\n${options.models} models on ${options.engine}, ${processCount} process(es), seed ${options.seed}: ${rooms.length} rooms, ${sent.length} messages, ${kills} kills, ${checked.answersChecked} stored answers checked in their rooms\n`,
);
for (const failure of failures) process.stdout.write(`note: ${failure}\n`);
for (const problem of problems) process.stdout.write(`PROBLEM: ${problem}\n`);
process.stdout.write(problems.length === 0 ? `no problems (data and log: ${dataDir})\n` : `${problems.length} problem(s) (data and log: ${dataDir})\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
