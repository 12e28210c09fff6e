/** A brainstorm driven through the fake Discord, against cluster processes, read back from the shared database. */
import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/create-database.ts';
import type { Database } from '../../src/db/schema.ts';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord/index.ts';
import type { FakeChannel } from '../fakes/discord/fake-model.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter, type FakeOpenRouterOptions } from '../fakes/openrouter/fake-openrouter.ts';
import { clusterEnvironment, startClusterProcess, waitUntil, type ClusterProcess } from './app-cluster.ts';
import { waitForHealthy } from './app-process.ts';
import { createThrowawayPostgres } from './databases.ts';
import type { DrillSession } from './cluster-drill.ts';
import { scriptedPlan } from './scripted-plans.ts';

/** What a Discord drill runs on: the fake models and Discord, a throwaway Postgres, and the processes started on them. */
export interface DiscordCluster {
  models: FakeOpenRouter;
  discord: FakeDiscord;
  database: { url: string; drop(): Promise<void> };
  handle: DatabaseHandle;
  /** The processes a test started, stopped after it by `stopProcesses`. */
  processes: ClusterProcess[];
  stopProcesses(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the fakes and a throwaway Postgres (a test file's `beforeAll`); `models` configures the fake models. */
export async function startDiscordCluster(models: FakeOpenRouterOptions = {}): Promise<DiscordCluster> {
  const fakeModels = await startFakeOpenRouter(models);
  const discord = await startFakeDiscord();
  const database = await createThrowawayPostgres();
  const handle = openDatabase({ kind: 'postgres', url: database.url });
  const processes: ClusterProcess[] = [];
  return {
    models: fakeModels,
    discord,
    database,
    handle,
    processes,
    stopProcesses: async () => void (await Promise.all(processes.splice(0).map((member) => member.stop()))),
    close: async () => {
      await handle.close();
      await discord.close();
      await fakeModels.close();
      await database.drop();
    },
  };
}

/**
 * A process (as `npm start` runs it) logged in to the fake Discord with `channel` to watch; resolves once it identified.
 * `databaseUrl` reaches the cluster's database another way (through a proxy that can go down).
 */
export async function startBotProcess(cluster: DiscordCluster, channel: FakeChannel, databaseUrl = cluster.database.url): Promise<ClusterProcess> {
  const { discord, models } = cluster;
  const identified = discord.gateway.stats.identifies;
  const started = await startClusterProcess(
    clusterEnvironment(models.url, databaseUrl, { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, DISCORD_CHANNEL_ID: channel.id }),
  );
  cluster.processes.push(started);
  await waitForHealthy(started, 120_000);
  await waitUntil(async () => discord.gateway.stats.identifies > identified, 'the bot identified');
  return started;
}

/** The session opened on a topic posted in `channel` (its newest, when a test opened several), once its plan waits for approval. */
export async function sessionOn(db: Kysely<Database>, channel: FakeChannel): Promise<DrillSession> {
  let found: DrillSession | null = null;
  await waitUntil(async () => {
    const row = await db
      .selectFrom('sessions')
      .select(['id', 'room_id', 'status'])
      .where('origin_channel_id', '=', channel.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (row?.status === 'awaiting_approval') found = { sessionId: row.id, roomId: row.room_id };
    return found !== null;
  }, `a plan for the topic in ${channel.name}`);
  if (!found) throw new Error('no session');
  return found;
}

/** Bob posts a topic in `channel` and approves the plan in its thread; resolves once the participants answered. */
export async function activeSessionIn(
  db: Kysely<Database>,
  models: FakeOpenRouter,
  discord: FakeDiscord,
  channel: FakeChannel,
  topic: string,
): Promise<DrillSession> {
  models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan({ maxMessages: 500 })));
  discord.post(channel.id, discord.people.bob, topic);
  const drill = await sessionOn(db, channel);
  discord.post(drill.roomId, discord.people.bob, '!approve');
  await waitUntil(async () => {
    const answers = await db.selectFrom('messages').select('id').where('session_id', '=', drill.sessionId).where('speaker_kind', '=', 'participant').execute();
    return answers.length >= 3;
  }, `the first answers in ${channel.name}`);
  return drill;
}

/** The stored id of the Discord message `discordId`, or 0 while no process has stored it. */
export async function storedDiscordId(db: Kysely<Database>, discordId: string): Promise<number> {
  const row = await db.selectFrom('messages').select('id').where('source_id', '=', `discord:${discordId}`).executeTakeFirst();
  return Number(row?.id ?? 0);
}
