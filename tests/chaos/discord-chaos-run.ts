/**
 * `npm run chaos:discord`: the bad day of `npm run chaos`, as people meet it on Discord with Notion keeping the record.
 * People post topics in a channel, approve plans, talk and give commands in the threads, through the fake Discord; the
 * app is killed (SIGKILL) and started again at random, and people go on talking while it is down (Discord replays
 * nothing to a new gateway session: what was said meanwhile must be read back); the gateway drops and Discord answers
 * 429s now and then; Notion goes down for tens of seconds at random. After a clean stop, discord-chaos-checks.ts reads the threads, the fake Notion and the database.
 *
 *   npm run chaos:discord -- [--engine pglite|postgres] [--models demo|literal] [--rooms 3] [--rounds 8] [--seed 1]
 *                            [--kill 0.4] [--notion-outage 0.3] [--discord-trouble 0.3] [--processes 2 (Postgres only)]
 *                            [--database-outage 0.3 (Postgres only: the server goes away for 3-20 s, as in a restart)]
 *                            [--lost-answers 0.3 (Postgres only: a write commits and the connection drops before its
 *                             answer; the server is away for 1-5 s)]
 *                            [--clean-stops 0.5 (the share of the kills that are a clean stop, SIGTERM, instead)]
 *
 * Exits 1 when an invariant broke, printing each problem.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../../src/core/clock.ts';
import { databaseLocationFor, openDatabase } from '../../src/db/create-database.ts';
import { startFakeDiscord, type RecordedMessage } from '../fakes/discord/index.ts';
import type { FakeUser } from '../fakes/discord/fake-model.ts';
import { startFakeNotion } from '../fakes/notion/fake-notion.ts';
import { startFakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { failedJobs, settled } from './chaos-checks.ts';
import { startAppProcess, type AppProcess } from './chaos-process.ts';
import { discordChaosProblems, discordRequestNotes, type SaidInThread } from './discord-chaos-checks.ts';
import { DAY_OPTIONS, pickWith, readDayOptions, seeded, SAYINGS, TOPICS } from './chaos-day.ts';

const options = readDayOptions(
  () =>
    parseArgs({
      options: {
        ...DAY_OPTIONS,
        'notion-outage': { type: 'string', default: '0.3' },
        'discord-trouble': { type: 'string', default: '0.3' },
        'database-outage': { type: 'string', default: '0' },
        'lost-answers': { type: 'string', default: '0' },
        'clean-stops': { type: 'string', default: '0' },
        port: { type: 'string', default: '7591' },
        processes: { type: 'string', default: '1' },
      },
    }).values,
  [
    'npm run chaos:discord -- [--engine pglite|postgres] [--models demo|literal] [--rooms 3] [--rounds 8] [--seed 1] [--kill 0.4]',
    '  [--notion-outage 0.3] [--discord-trouble 0.3] [--processes 2] [--database-outage 0.3] [--lost-answers 0.3] [--clean-stops 0.5]',
    '  (--processes, --database-outage and --lost-answers need --engine postgres; see the head of tests/chaos/discord-chaos-run.ts)',
  ].join('\n'),
);

const random = seeded(Number(options.seed));
const pick = pickWith(random);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const COMMANDS = ['!focus the cost', '!status', '!pause', '!continue', '!explore', '!summary', '!ideas'];

const processCount = Number(options.processes);
if (processCount > 1 && options.engine !== 'postgres') throw new Error('several processes share a Postgres server: add --engine postgres');
const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-discord-chaos-'));
const postgres = options.engine === 'postgres' ? await createThrowawayPostgres() : null;
if (Number(options['database-outage']) + Number(options['lost-answers']) > 0 && !postgres)
  throw new Error('a database outage (or a lost answer) needs a Postgres server: add --engine postgres');
/** The writes whose answer may be lost: what people said, answers, deliveries, jobs, leases, records, sessions, plans. */
const LOSABLE_WRITES = [
  'insert into "inbound_claims"',
  'insert into "messages"',
  'update "messages"',
  'update "sessions"',
  'insert into "jobs"',
  'update "jobs"',
  'insert into "session_leases"',
  'update "session_leases"',
  'insert into "stream_previews"',
  'insert into "documents"',
  'update "documents"',
  'insert into "notion_objects"',
  'update "run_states"',
];
// The processes reach Postgres through a proxy that can go away; the checks read it directly.
const postgresServer = postgres ? new URL(postgres.url) : null;
// A run alone on its machine: the proxy may give its port up while down (refused, as from a restarting server).
const proxy = postgresServer
  ? await startFaultProxy({ host: postgresServer.hostname, port: Number(postgresServer.port || 5432) }, { turnedAway: 'refuse' })
  : null;
const models = options.models === 'literal' ? await startFakeOpenRouter({ fallback: 'literal' }) : null;
const discord = await startFakeDiscord();
const notion = await startFakeNotion({ clock: systemClock });
const channel = discord.channels['brainstorm']!;
const environment: Record<string, string> = {
  DATA_DIR: dataDir,
  // CHAOS_LOG_LEVEL=info (or debug) keeps more of each process's log, to follow a problem.
  LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'warn',
  DEMO_PACE: 'fast',
  SESSION_PLANNER_MAX_QUESTIONS: '0',
  DISCORD_BOT_TOKEN: discord.token,
  DISCORD_API_URL: discord.apiUrl,
  DISCORD_CDN_URL: discord.cdnUrl,
  DISCORD_CHANNEL_ID: channel.id,
  NOTION_API_KEY: 'secret_test_token',
  NOTION_BASE_URL: notion.url,
  NOTION_PARENT_PAGE_ID: notion.parentPageId,
  // Short Scribe and TLDR intervals: a few minutes' day still has several passes, some of them during an outage.
  SCRIBE_UPDATE_INTERVAL: '20',
  TLDR_UPDATE_INTERVAL: '60',
  ...(postgres && proxy ? { DATABASE_URL: proxy.through(postgres.url) } : {}),
  ...(models ? { OPENROUTER_API_KEY: 'sk-or-chaos-123', OPENROUTER_BASE_URL: models.url } : {}),
};
const startProcess = (index: number) =>
  startAppProcess(
    { ...environment, DATA_DIR: index === 0 ? dataDir : mkdtempSync(join(tmpdir(), 'brainstorm-discord-chaos-')) },
    Number(options.port) + index,
    join(dataDir, `app-${index}.log`),
  );
/** A process's gateway session: resolves once it identified, so nothing people say before is taken for "said while down". */
async function startIdentified(index: number): Promise<AppProcess> {
  const identified = discord.gateway.stats.identifies;
  const app = await startProcess(index);
  await discord.waitFor(() => discord.gateway.stats.identifies > identified, { timeoutMs: 60_000, description: 'the bot identified' });
  return app;
}
const apps: AppProcess[] = [];
for (let index = 0; index < processCount; index += 1) apps.push(await startIdentified(index));

const said: SaidInThread[] = [];
const people: FakeUser[] = [discord.people.bob, discord.people.ada];
let kills = 0;
let cleanStops = 0;
let saidWhileDown = 0;
let outages = 0;
let databaseOutages = 0;
const lostAnswers: string[] = [];
/** The database outage under way (the server comes back at its end), or none. */
let databaseOutage: Promise<void> = Promise.resolve();
const troubles: string[] = [];

/**
 * Discord having a moment: the gateway drops (4000: the client resumes and Discord replays what it missed; 4009: the
 * session timed out, nothing is replayed, and the bot must read back what was said), or a burst of 429s on posting.
 */
function discordTrouble(): void {
  const roll = random();
  if (roll < 0.35) {
    discord.disconnectGateway(4000);
    troubles.push('gateway dropped (resume)');
  } else if (roll < 0.7) {
    discord.disconnectGateway(4009);
    troubles.push('gateway session timed out');
  } else {
    discord.injectRateLimit({
      route: ['webhook.execute', 'webhook.message.edit', 'message.create'],
      count: 3 + Math.floor(random() * 6),
      retryAfterSeconds: 1 + random() * 2,
    });
    troubles.push('429s on posting');
  }
}

/** The thread opened on `topic` and its plan message, once the bot posted it with its approve button. */
function planIn(topic: RecordedMessage): { threadId: string; plan: RecordedMessage } | null {
  const threadId = discord.state.findMessage(topic.id)?.threadId;
  const plan = threadId ? discord.messagesIn(threadId).find((message) => JSON.stringify(message.components).includes('brainstorm:approve')) : undefined;
  return threadId && plan ? { threadId, plan } : null;
}

const threads: string[] = [];
const topics: RecordedMessage[] = [];
/** Topics posted during the day (some while no process ran) whose plan is not approved yet. */
const unapproved: RecordedMessage[] = [];

/** Bob posts a topic in the channel; its plan is approved once it shows. */
function postTopic(): RecordedMessage {
  const topic = discord.post(channel.id, discord.people.bob, TOPICS[topics.length % TOPICS.length]!);
  topics.push(topic);
  unapproved.push(topic);
  return topic;
}

/** Approves the plans that showed, half with the button and half with the command; the room joins the day. */
function approvePlans(): void {
  for (const topic of [...unapproved]) {
    const shown = planIn(topic);
    if (!shown) continue;
    if (random() < 0.5) discord.clickButton(shown.plan, 'brainstorm:approve', discord.people.bob);
    else discord.post(shown.threadId, discord.people.bob, '!approve');
    threads.push(shown.threadId);
    unapproved.splice(unapproved.indexOf(topic), 1);
  }
}

for (let index = 0; index < Number(options.rooms); index += 1) {
  const topic = postTopic();
  await discord.waitFor(() => planIn(topic), { timeoutMs: 120_000, description: `a plan for "${topic.content}"` });
  approvePlans();
}
await sleep(3000);

let revisions = 0;

/** A person says something in a thread; `down` when no process was up to hear it. Now and then they change their mind. */
function say(threadId: string, down: boolean): void {
  const message = discord.post(threadId, pick(people), pick(SAYINGS));
  said.push({ threadId, messageId: message.id, atMs: message.createdAtMs });
  if (down) saidWhileDown += 1;
  if (random() < 0.15) revise(pick(said.slice(-6)));
}

/** Its author edits or deletes one of the last things said (Discord tells only a connected bot). */
function revise(message: SaidInThread): void {
  const current = discord.state.findMessage(message.messageId);
  if (!current || current.deleted) return;
  revisions += 1;
  if (random() < 0.7) discord.editAsAuthor(current, `${current.content} Actually, ${pick(SAYINGS).toLowerCase()}`);
  else discord.deleteAsPerson(current);
}

for (let round = 0; round < Number(options.rounds); round += 1) {
  approvePlans();
  // Now and then a new topic comes up while the others go on.
  if (random() < 0.12) postTopic();
  for (const threadId of threads) {
    const roll = random();
    if (roll < 0.65) {
      say(threadId, false);
      // Now and then someone follows up while the room still answers.
      if (random() < 0.3) await sleep(300 + random() * 1200).then(() => say(threadId, false));
    } else if (roll < 0.9) discord.post(threadId, discord.people.bob, pick(COMMANDS));
  }
  if (random() < Number(options['discord-trouble'])) {
    discordTrouble();
    // Said just as the gateway dropped: replayed by a resume, read back after a new session.
    if (random() < 0.5) say(pick(threads), false);
  }
  if (random() < Number(options['notion-outage'])) {
    notion.startOutage(15_000 + random() * 45_000);
    outages += 1;
  }
  if (proxy && random() < Number(options['database-outage'])) {
    await databaseOutage;
    databaseOutages += 1;
    const lastsMs = 3000 + random() * 17_000;
    databaseOutage = proxy.down().then(() => sleep(lastsMs).then(() => proxy.up()));
  }
  if (proxy && random() < Number(options['lost-answers'])) {
    await databaseOutage;
    const write = pick(LOSABLE_WRITES);
    const lastsMs = 1000 + random() * 4000;
    const lost = proxy.loseAnswerTo(write);
    // A write nobody makes within 20 s is let go.
    const letGo = setTimeout(() => proxy.disarm(), 20_000);
    databaseOutage = lost.then(async (went) => {
      clearTimeout(letGo);
      if (!went) return;
      lostAnswers.push(write);
      await sleep(lastsMs);
      await proxy.up();
    });
  }
  await sleep(500 + random() * 2500);
  if (random() < Number(options.kill)) {
    // A process does not start while its database is away (`npm start` exits, for its supervisor to start it again).
    await databaseOutage;
    const index = Math.floor(random() * apps.length);
    // Drawn only when asked for: the days of a seed without clean stops stay as they were.
    const clean = Number(options['clean-stops']) > 0 && random() < Number(options['clean-stops']);
    await (clean ? apps[index]!.stop() : apps[index]!.kill());
    kills += 1;
    if (clean) cleanStops += 1;
    // People go on talking while it is down; with one process, nobody hears them until the restart reads them back.
    while (random() < 0.6) say(pick(threads), processCount === 1);
    if (random() < 0.2) postTopic();
    await sleep(random() * 2000);
    apps[index] = await startIdentified(index);
  }
  process.stdout.write(
    `round ${round + 1}: ${said.length} messages said, ${kills} kills, ${troubles.length} Discord troubles, ${outages} Notion outages, ${databaseOutages} database outages\n`,
  );
}

// The last topics' plans are approved; every room goes on (a paused one too); Notion comes back; the app settles,
// writes its records, and stops cleanly.
await discord.waitFor(() => unapproved.every((topic) => planIn(topic)), { timeoutMs: 60_000, description: 'a plan for every topic' }).catch(() => undefined);
approvePlans();
for (const threadId of threads) discord.post(threadId, discord.people.bob, '!continue');
notion.endOutage();
await databaseOutage;
await sleep(45_000);
// With a server to read while the processes run, on until the sessions' Notion rows are written (a backoff may
// outlast the wait).
if (postgres) {
  const watching = openDatabase(databaseLocationFor(postgres.url, dataDir));
  const quiet = await settled(watching.db, { kinds: ['notion_session_row'], horizonMs: 60_000, maxMs: 180_000, sleep });
  await watching.close();
  if (!quiet) process.stdout.write('note: a Notion row job was running or due within a minute three minutes after the day ended\n');
}
for (const app of apps) await app.stop();

const database = openDatabase(databaseLocationFor(postgres?.url, dataDir));
const checked = await discordChaosProblems(database.db, { discord, notion, threads, topics: topics.map((topic) => topic.id), said, now: new Date() });
const failures = await failedJobs(database.db);
await database.close();
await models?.close();
await discord.close();
await notion.close();
await proxy?.close();
// A day with problems keeps its database for a look.
if (checked.problems.length === 0) await postgres?.drop();
else if (postgres) process.stdout.write(`database kept: ${postgres.url}\n`);

process.stdout.write(
  `\n${options.models} models on ${options.engine} through Discord and Notion, ${processCount} process(es), seed ${options.seed}: ${topics.length} topics, ${threads.length} threads, ` +
    `${said.length} messages (${saidWhileDown} while no process ran, ${revisions} edited or deleted), ${kills} kills (${cleanStops} of them clean stops), ${outages} Notion outages, ${databaseOutages} database outages, ` +
    `answers lost to ${lostAnswers.length === 0 ? 'no write' : lostAnswers.join(', ')}, ` +
    `Discord troubles: ${troubles.length === 0 ? 'none' : troubles.join(', ')}; ` +
    `${checked.answersChecked} stored answers checked in their threads, ${checked.rowsChecked} Notion rows, ${checked.pagesChecked} Notion pages\n`,
);
for (const note of [...discordRequestNotes(discord, notion), ...failures]) process.stdout.write(`note: ${note}\n`);
for (const problem of checked.problems) process.stdout.write(`PROBLEM: ${problem}\n`);
process.stdout.write(
  checked.problems.length === 0 ? `no problems (data and log: ${dataDir})\n` : `${checked.problems.length} problem(s) (data and log: ${dataDir})\n`,
);
process.exitCode = checked.problems.length === 0 ? 0 : 1;
