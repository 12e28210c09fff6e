/** A brainstorm driven through the fake Discord, against cluster processes, read back from the shared database. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { FakeDiscord } from '../fakes/discord/index.ts';
import type { FakeChannel } from '../fakes/discord/fake-model.ts';
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { waitUntil } from './app-cluster.ts';
import type { DrillSession } from './cluster-drill.ts';
import { scriptedPlan } from './scripted-plans.ts';

/** The session opened on a topic posted in `channel`, once its plan waits for approval. */
export async function sessionOn(db: Kysely<Database>, channel: FakeChannel): Promise<DrillSession> {
  let found: DrillSession | null = null;
  await waitUntil(async () => {
    const row = await db.selectFrom('sessions').select(['id', 'room_id', 'status']).where('origin_channel_id', '=', channel.id).executeTakeFirst();
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
