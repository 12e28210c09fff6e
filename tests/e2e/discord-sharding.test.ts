/**
 * Discord sharding across two real processes on one Postgres: SHARD_COUNT=2, one process per shard. Each guild's
 * events reach only the process whose shard holds it, so each session is opened, leased and answered there; a
 * stopped shard's sessions wait for a process of that shard, which reads back what was said meanwhile.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/create-database.ts';
import type { FakeDiscord } from '../fakes/discord/index.ts';
import type { FakeChannel } from '../fakes/discord/fake-model.ts';
import type { FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { clusterEnvironment, startClusterProcess, waitUntil, type ClusterProcess } from '../support/app-cluster.ts';
import { waitForHealthy } from '../support/browser.ts';
import { leaseHolderPid, waitAnswered, type DrillSession } from '../support/cluster-drill.ts';
import { auditConversation } from '../support/conversation-audit.ts';
import { activeSessionIn, startDiscordCluster, storedDiscordId, type DiscordCluster } from '../support/discord-drill.ts';

let cluster: DiscordCluster;
let models: FakeOpenRouter;
let discord: FakeDiscord;
let database: { url: string };
let handle: DatabaseHandle;
let channels: { shard0: FakeChannel; shard1: FakeChannel };
/** Every process the test started, stopped ones included (their logs explain a failure). */
const everyProcess: ClusterProcess[] = [];

beforeAll(async () => {
  cluster = await startDiscordCluster();
  ({ models, discord, database, handle } = cluster);
  channels = {
    shard0: discord.addGuild('Guild on shard 0', ['brainstorm'], { index: 0, count: 2 }).channels['brainstorm'] as FakeChannel,
    shard1: discord.addGuild('Guild on shard 1', ['brainstorm'], { index: 1, count: 2 }).channels['brainstorm'] as FakeChannel,
  };
});
afterEach(async () => cluster.stopProcesses());
afterAll(async () => cluster?.close());

/** A process serving shard `index` of 2, logged in to the fake Discord; resolves once its gateway session is ready. */
async function shardProcess(index: number): Promise<ClusterProcess> {
  const identified = discord.gateway.stats.identifies;
  const started = await startClusterProcess(
    clusterEnvironment(models.url, database.url, {
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_CHANNEL_ID: `${channels.shard0.id},${channels.shard1.id}`,
      SHARD_COUNT: '2',
      SHARD_IDS: String(index),
    }),
  );
  cluster.processes.push(started);
  everyProcess.push(started);
  await waitForHealthy(started, 120_000);
  await waitUntil(async () => discord.gateway.stats.identifies > identified, `shard ${index} identified`);
  return started;
}

/** A person's message in a session thread, once stored; returns its id. */
async function personMessage(drill: DrillSession, text: string): Promise<number> {
  const posted = discord.post(drill.roomId, discord.people.bob, text);
  await waitUntil(async () => (await storedId(posted.id)) > 0, `"${text}" stored`);
  return storedId(posted.id);
}

/**
 * Runs `body`; when it fails, what every process printed goes to stderr with the error, and what the database holds
 * of the conversations and their unfinished jobs (these runs are not reproducible: a loaded full run timed out once
 * waiting for the answers after the shard-1 process came back, whose process logs said nothing amiss).
 */
async function withProcessLogs(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    for (const [index, member] of everyProcess.entries()) process.stderr.write(`--- process ${index} (pid ${member.pid})\n${member.output()}\n`);
    process.stderr.write(`--- database\n${(await databaseState()).map((row) => JSON.stringify(row)).join('\n')}\n`);
    throw error;
  }
}

/** Every session's messages (who, what they reply to, their delivery) and every job not done, for a failure's report. */
async function databaseState(): Promise<unknown[]> {
  const messages = await handle.db
    .selectFrom('messages')
    .select(['id', 'session_id', 'speaker_kind', 'speaker_name', 'reply_to', 'delivery_status', 'external_ids'])
    .orderBy('id')
    .execute();
  const jobs = await handle.db
    .selectFrom('jobs')
    .select(['id', 'kind', 'session_id', 'status', 'run_at', 'retry_count', 'last_error', 'locked_by', 'payload'])
    .where('status', 'not in', ['done', 'cancelled', 'superseded'])
    .execute();
  const leases = await handle.db.selectFrom('session_leases').selectAll().execute();
  return [...messages, ...jobs, ...leases];
}

describe('Discord sharding: two processes, one shard each', () => {
  it(
    "each guild's sessions run in the process of its shard, and wait for that shard when its process is gone",
    () =>
      withProcessLogs(async () => {
        const first = await shardProcess(0);
        const second = await shardProcess(1);
        // Each gateway session holds one shard: Discord sends it that shard's guilds only.
        expect([...discord.gateway.sessions.values()].map((session) => session.shard).sort()).toEqual([
          [0, 2],
          [1, 2],
        ]);
        // Each process registers /brainstorm in the guild of its own shard only: one overwrite per guild.
        expect([...discord.state.commandOverwrites].sort()).toEqual([channels.shard0.guildId, channels.shard1.guildId].sort());

        const onShard0 = await activeSessionIn(handle.db, models, discord, channels.shard0, 'Shard 0: how do we roll out flags?');
        const onShard1 = await activeSessionIn(handle.db, models, discord, channels.shard1, 'Shard 1: how do we roll back?');
        expect(await leaseHolderPid(handle.db, onShard0.sessionId)).toBe(first.pid);
        expect(await leaseHolderPid(handle.db, onShard1.sessionId)).toBe(second.pid);

        // The shard-1 process stops: its session is not taken by the process that cannot hear its guild, not even by a
        // restarted one whose catch-up reads every live thread back.
        expect(await second.signal('SIGTERM')).toBe(0);
        const unheard = discord.post(onShard1.roomId, discord.people.bob, 'Bob writes while shard 1 has no process');
        expect(await first.signal('SIGTERM')).toBe(0);
        const restarted = await shardProcess(0);
        const answeredOnShard0 = await personMessage(onShard0, 'Bob writes in the guild of shard 0');
        await waitAnswered(handle.db, onShard0, answeredOnShard0);
        expect(await leaseHolderPid(handle.db, onShard0.sessionId)).toBe(restarted.pid);
        expect(await storedId(unheard.id)).toBe(0);
        expect(await leaseHolderPid(handle.db, onShard1.sessionId)).toBeNull();

        // A new process for shard 1 reads back what was said meanwhile, takes the session and answers.
        const replacement = await shardProcess(1);
        await waitUntil(async () => (await storedId(unheard.id)) > 0, 'the message read back by the new shard-1 process');
        await waitAnswered(handle.db, onShard1, await storedId(unheard.id));
        expect(await leaseHolderPid(handle.db, onShard1.sessionId)).toBe(replacement.pid);
        for (const drill of [onShard0, onShard1]) {
          const audit = await auditConversation(handle.db, drill.sessionId);
          expect({ lost: audit.lost, duplicated: audit.duplicated }).toEqual({ lost: 0, duplicated: 0 });
        }
      }),
    300_000,
  );
});

/** The stored id of the Discord message `discordId`, or 0 while no process has stored it. */
function storedId(discordId: string): Promise<number> {
  return storedDiscordId(handle.db, discordId);
}
