/**
 * A `!stop` said while no process ran wins over the session's resumption. Discord replays nothing to a new gateway
 * session: `npm start` reads back what was said meanwhile before it resumes the sessions a stop left, so the stop
 * ends the session before any round goes on, and no participant speaks after it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/create-database.ts';
import type { FakeDiscord, RecordedMessage } from '../fakes/discord/index.ts';
import type { FakeChannel } from '../fakes/discord/fake-model.ts';
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { waitUntil } from '../support/app-cluster.ts';
import { activeSessionIn, startBotProcess, startDiscordCluster, storedDiscordId, type DiscordCluster } from '../support/discord-drill.ts';

let cluster: DiscordCluster;
let models: FakeOpenRouter;
let discord: FakeDiscord;
let channel: FakeChannel;
let handle: DatabaseHandle;

beforeAll(async () => {
  cluster = await startDiscordCluster();
  ({ models, discord, handle } = cluster);
  channel = discord.channels['brainstorm'] as FakeChannel;
});
afterEach(async () => cluster.stopProcesses());
afterAll(async () => cluster?.close());

const botProcess = () => startBotProcess(cluster, channel);

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
