/**
 * Restarts on Discord, as people in the thread meet them. A process killed while a participant's answer streams into
 * a Discord thread leaves a half-written message ending in ▍ that no answer will ever replace. The process that takes
 * over removes it (the answer itself is written again when the session resumes), so the thread never shows the bot
 * posting half an answer. A process stopped cleanly (a restart, a deploy) removes its own before it exits, and keeps
 * none of them as an interrupted answer. And a `!stop` said while no process ran wins over the session's resumption:
 * Discord replays nothing to a new gateway session, so `npm start` reads back what was said meanwhile before it
 * resumes the sessions a stop left.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/create-database.ts';
import type { FakeDiscord, RecordedMessage } from '../fakes/discord/index.ts';
import type { FakeChannel } from '../fakes/discord/fake-model.ts';
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { waitUntil } from '../support/app-cluster.ts';
import { waitAnswered } from '../support/cluster-drill.ts';
import { activeSessionIn, startBotProcess, startDiscordCluster, storedDiscordId, type DiscordCluster } from '../support/discord-drill.ts';

let cluster: DiscordCluster;
let models: FakeOpenRouter;
let discord: FakeDiscord;
let channel: FakeChannel;
let handle: DatabaseHandle;

beforeAll(async () => {
  // Models that answer by the request's shape alone, never by what our prompts ask: every drill still reaches its end.
  cluster = await startDiscordCluster({ fallback: 'literal' });
  ({ models, discord, handle } = cluster);
  channel = discord.channels['brainstorm'] as FakeChannel;
});
afterEach(async () => cluster.stopProcesses());
afterAll(async () => cluster?.close());

const botProcess = () => startBotProcess(cluster, channel);

/** The stored id of Bob's Discord message, once a process stored it. */
function storedId(discordId: string): Promise<number> {
  return storedDiscordId(handle.db, discordId);
}

const isPreview = (message: RecordedMessage) => message.origin !== 'person' && message.content.includes('▍');

/** Bob asks in an active session and every participant stalls mid-answer: resolves once the three previews are recorded. */
async function threeStalledAnswers(topic: string): Promise<{ drill: Awaited<ReturnType<typeof activeSessionIn>>; questionId: string; previews: string[] }> {
  const drill = await activeSessionIn(handle.db, models, discord, channel, topic);
  const stalling = replies.stall('Half of an answer');
  for (const participant of ['Claude', 'ChatGPT', 'Grok']) models.script({ participant }, stalling);
  const question = discord.post(drill.roomId, discord.people.bob, 'What would you silence first?');
  // Only previews of answers to Bob: on a loaded machine the opening round may still be streaming its own.
  const stalled = (message: RecordedMessage) => isPreview(message) && message.order > question.order;
  // All three streaming and recorded (a kill between Discord's reply to the post and the record, a few milliseconds,
  // would leave that one preview behind).
  await discord.waitFor(() => discord.messagesIn(drill.roomId).filter(stalled).length === 3, { timeoutMs: 30_000, description: 'three previews' });
  const previews = discord
    .messagesIn(drill.roomId)
    .filter(stalled)
    .map((message) => message.id);
  await waitUntil(
    async () => (await handle.db.selectFrom('stream_previews').select('external_id').where('external_id', 'in', previews).execute()).length === 3,
    'the previews recorded',
  );
  return { drill, questionId: question.id, previews };
}

/** Rows still recorded for these previews. */
async function recordedPreviews(ids: string[]): Promise<unknown[]> {
  return handle.db.selectFrom('stream_previews').select('external_id').where('external_id', 'in', ids).execute();
}

describe('a process killed mid-answer on Discord', () => {
  it('leaves no half-written answer in the thread: the process that takes over removes it and answers again', async () => {
    const first = await botProcess();
    const { drill, questionId, previews } = await threeStalledAnswers('How do we keep the pager quiet at night?');
    expect(await first.signal('SIGKILL')).toBeNull();
    expect(discord.messagesIn(drill.roomId).some(isPreview)).toBe(true);

    const second = await botProcess();
    await discord
      .waitFor(() => !discord.messagesIn(drill.roomId).some((message) => previews.includes(message.id)), {
        timeoutMs: 60_000,
        description: 'the half-written answers removed',
      })
      .catch(async (error: unknown) => {
        // Seen once in a loaded run: what the thread, the preview rows and the new process say, for the next one.
        const rows = await handle.db.selectFrom('stream_previews').selectAll().execute();
        console.log(JSON.stringify({ thread: discord.messagesIn(drill.roomId).map((m) => [m.id, m.origin, m.content.slice(0, 80)]), previews, rows }));
        console.log(second.output().slice(-4000));
        throw error;
      });
    await waitUntil(async () => (await storedId(questionId)) > 0, "Bob's question stored");
    await waitAnswered(handle.db, drill, await storedId(questionId));
    await discord.waitFor(() => !discord.messagesIn(drill.roomId).some(isPreview), { timeoutMs: 30_000, description: 'no preview left in the thread' });
    // The sweep forgets a preview's row just after it removed the message: with answers that come at once, the test
    // can look in between.
    await waitUntil(async () => (await recordedPreviews(previews)).length === 0, 'the removed previews forgotten');
  }, 300_000);
});

describe('a process killed mid-answer whose previews were never recorded (its database away as it posted them)', () => {
  it('leaves no half-written answer in the thread either: the process that takes the session over reads its room back', async () => {
    const first = await botProcess();
    const { drill, questionId, previews } = await threeStalledAnswers('How do we keep the build green?');
    // As if the database had been away as they were posted: nobody recorded them, so no sweep of recorded previews knows them.
    await handle.db.deleteFrom('stream_previews').where('external_id', 'in', previews).execute();
    expect(await first.signal('SIGKILL')).toBeNull();
    const second = await botProcess();
    await discord.waitFor(() => !discord.messagesIn(drill.roomId).some((message) => previews.includes(message.id)), {
      timeoutMs: 60_000,
      description: 'the unrecorded half-written answers removed',
    });
    // Logged once the last of them is removed, which the thread shows first.
    await waitUntil(async () => second.output().includes('removed half-written answers nobody had recorded'), 'the sweep of the room taken over');
    await waitAnswered(handle.db, drill, await storedId(questionId));
    await discord.waitFor(() => !discord.messagesIn(drill.roomId).some(isPreview), { timeoutMs: 30_000, description: 'no preview left in the thread' });
  }, 300_000);
});

describe('a process stopped cleanly mid-answer on Discord (a restart, a deploy)', () => {
  it('takes its unfinished answers out of the thread before it exits, keeps none of them, and the next process answers again', async () => {
    const first = await botProcess();
    const { drill, questionId, previews } = await threeStalledAnswers('How do we keep the deploy channel readable?');
    expect(await first.signal('SIGTERM')).toBe(0);
    // Gone before any other process starts: the stopping process removed them itself.
    expect(discord.messagesIn(drill.roomId).filter((message) => previews.includes(message.id))).toEqual([]);
    expect(await recordedPreviews(previews)).toEqual([]);
    const interrupted = await handle.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', drill.sessionId)
      .where(sql<boolean>`content->>'interrupted' = 'true'`)
      .execute();
    expect(interrupted).toEqual([]);

    await botProcess();
    await waitAnswered(handle.db, drill, await storedId(questionId));
    expect(discord.messagesIn(drill.roomId).some((message) => message.content.includes('interrupted'))).toBe(false);
  }, 300_000);
});

const PARTICIPANTS = ['Claude', 'ChatGPT', 'Grok'];

describe('a !stop said while the bot was down', () => {
  it('stops the session before the restart resumes it: no participant answers after the stop', async () => {
    const first = await botProcess();
    const drill = await activeSessionIn(handle.db, models, discord, channel, 'How do we keep the release notes short?');
    // Bob asks; the answers stall, and the process is stopped before any of them is written.
    for (const participant of PARTICIPANTS) models.script({ participant }, replies.hang());
    const question = discord.post(drill.roomId, discord.people.bob, 'Who reads them, really?');
    await waitUntil(async () => (await storedDiscordId(handle.db, question.id)) > 0, "Bob's question stored");
    expect(await first.signal('SIGTERM')).toBe(0);

    const stop = discord.post(drill.roomId, discord.people.bob, '!stop');
    await botProcess();
    const closing = (message: RecordedMessage) =>
      message.order > stop.order && message.displayName === 'Moderator' && /session is closed/.test(message.content);
    await discord.waitFor(() => discord.messagesIn(drill.roomId).find(closing), { timeoutMs: 60_000, description: 'the closing message' });
    const status = await handle.db.selectFrom('sessions').select('status').where('id', '=', drill.sessionId).executeTakeFirstOrThrow();
    expect(status.status).toBe('stopped');
    const spokeAfterStop = discord
      .messagesIn(drill.roomId)
      .filter((message) => message.order > stop.order && PARTICIPANTS.includes(message.displayName ?? ''))
      .map((message) => `${message.displayName}: ${message.content.slice(0, 80)}`);
    expect(spokeAfterStop).toEqual([]);
  }, 300_000);
});
