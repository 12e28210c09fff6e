/**
 * A session's room closed in Discord: its thread deleted or locked by a moderator, or its brainstorm channel deleted,
 * live or while the bot was away. Nobody can read or answer there, so the session ends as `!stop` ends it (the record
 * is still written) instead of spending its budget on a room nobody sees. An archived thread is not a closed one.
 */
import { GatewayDispatchEvents } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../src/core/domain.ts';
import { CLOSURE_REASONS } from '../../src/bot/room-closure-events.ts';
import type { FakeUser, RecordedMessage } from '../fakes/discord/index.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';

let running: DiscordApp;
beforeEach(async () => {
  running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' });
});
afterEach(async () => running?.stop());

const say = (channelId: string, person: FakeUser, content: string): Promise<RecordedMessage> => postAndSettle(running, channelId, person, content);

/** A session in its own thread, approved, its first round answered. */
async function activeSession(topic = 'How should a small team adopt feature flags?'): Promise<{ roomId: string; session: Session }> {
  const { discord, test } = running;
  const roomId = (await say(discord.channels['brainstorm']!.id, discord.people.ada, topic)).threadId!;
  await say(roomId, discord.people.ada, 'We are 5 engineers shipping a SaaS.');
  await say(roomId, discord.people.ada, '!approve');
  const session = (await test.app.repositories.sessions.findByRoom('discord', roomId))!;
  expect(session.status).toBe('active');
  return { roomId, session };
}

async function sessionNow(sessionId: string): Promise<Session> {
  return (await running.test.app.repositories.sessions.findById(sessionId))!;
}

const participantRequests = () => running.models.chats.filter((chat) => chat.agent.role === 'participant').length;

/** Bot and webhook posts into a channel that Discord accepted since a log position. */
function postsAcceptedIn(channelId: string, fromLogIndex: number): number {
  return running.discord.router.log
    .slice(fromLogIndex)
    .filter((entry) => entry.status < 300 && entry.method === 'POST' && (entry.path.includes(channelId) || entry.path.includes(`thread_id=${channelId}`)))
    .length;
}

describe('a room closed in Discord', () => {
  it('a deleted thread ends its session; nothing more is asked of the participants', async () => {
    const { discord, bot, test } = running;
    const { roomId, session } = await activeSession();
    const requestsBefore = participantRequests();
    discord.deleteChannel(roomId);
    await bot.handled(`closure-${roomId}`);
    await test.settle();
    const ended = await sessionNow(session.id);
    expect(ended.status).toBe('stopped');
    expect(ended.endReason).toBe(CLOSURE_REASONS.threadDeleted);
    expect(participantRequests()).toBe(requestsBefore);
    // The closing could not reach a deleted thread: that is no failure to alarm an admin with.
    const jobs = await test.app.repositories.jobs.listForSession(session.id);
    expect(jobs.filter((job) => job.status === 'failed')).toEqual([]);
    expect(jobs.filter((job) => job.kind === 'wrap_up').map((job) => job.status)).toEqual(['done']);
  });

  it('a moderator locking the thread ends its session and nothing more is posted there', async () => {
    const { discord, bot, test } = running;
    const { roomId, session } = await activeSession();
    const logFrom = discord.router.log.length;
    discord.archiveThread(roomId, { locked: true });
    await bot.handled(`closure-${roomId}`);
    await test.settle();
    const ended = await sessionNow(session.id);
    expect(ended.status).toBe('stopped');
    expect(ended.endReason).toBe(CLOSURE_REASONS.threadLocked);
    expect(postsAcceptedIn(roomId, logFrom)).toBe(0);
    expect((await test.app.repositories.jobs.listForSession(session.id)).filter((job) => job.status === 'failed')).toEqual([]);
    // Discord refuses a plain member's post in a locked thread, as it refuses the bot's.
    expect(() => discord.post(roomId, discord.people.bob, 'Hello?')).toThrow(/archived/);
  });

  it('a thread deleted while the bot was away ends its session at the catch-up', async () => {
    const { discord, bot, test } = running;
    const { roomId, session } = await activeSession();
    discord.deleteChannel(roomId, { dispatch: false });
    expect((await sessionNow(session.id)).status).toBe('active');
    await bot.catchUp();
    await test.settle();
    const ended = await sessionNow(session.id);
    expect(ended.status).toBe('stopped');
    expect(ended.endReason).toBe(CLOSURE_REASONS.threadDeleted);
  });

  it('a thread closed and locked while the gateway was away ends its session, though the bot still holds it as it was', async () => {
    const { discord, bot, test } = running;
    const { roomId, session } = await activeSession();
    // As across a reconnect to a new gateway session: the thread is in the bot's cache, unlocked, and the new
    // session's GUILD_CREATE lists active threads only, so nothing tells the cache that it was archived and locked.
    discord.archiveThread(roomId, { locked: true, dispatch: false });
    await bot.catchUp();
    await test.settle();
    const ended = await sessionNow(session.id);
    expect(ended.status).toBe('stopped');
    expect(ended.endReason).toBe(CLOSURE_REASONS.threadLocked);
  });

  it('an archived thread is not closed: a person speaking wakes it and the participants answer', async () => {
    const { discord, test } = running;
    const { roomId, session } = await activeSession();
    discord.archiveThread(roomId);
    await test.settle();
    expect((await sessionNow(session.id)).status).toBe('active');
    const requestsBefore = participantRequests();
    const logFrom = discord.router.log.length;
    await say(roomId, discord.people.bob, 'Back after a day: what about stale flags?');
    expect(discord.state.channels.get(roomId)?.archived).toBe(false);
    expect(participantRequests()).toBeGreaterThan(requestsBefore);
    expect(postsAcceptedIn(roomId, logFrom)).toBeGreaterThan(0);
  });

  it('a thread archived by hand mid-answer: the answer still lands once, and no preview is left', async () => {
    const { discord, test } = running;
    const { roomId, session } = await activeSession();
    let archived = false;
    let previews = 0;
    discord.state.onDispatch((event, data) => {
      const message = data as { channel_id?: string; webhook_id?: string; content?: string };
      if (archived || event !== GatewayDispatchEvents.MessageCreate || message.channel_id !== roomId || !message.webhook_id) return;
      if (!message.content?.includes('▍')) return;
      previews += 1;
      // Once every participant's preview is up: their next edits meet an archived thread.
      if (previews < 3) return;
      archived = true;
      discord.archiveThread(roomId);
    });
    await say(roomId, discord.people.bob, 'What about stale flags?');
    expect(archived).toBe(true);
    expect(discord.state.channels.get(roomId)?.archived).toBe(false);
    expect(discord.messagesIn(roomId).filter((message) => message.content.includes('▍'))).toEqual([]);
    const answers = (await test.app.repositories.messages.listForSession(session.id)).filter((message) => message.speaker.kind === 'participant');
    for (const answer of answers) {
      expect(answer.deliveryStatus).toBe('delivered');
      for (const externalId of answer.externalIds) expect(discord.state.findMessage(externalId)?.deleted).toBe(false);
    }
  });

  it("the bot removed from the server ends that server's sessions; an outage of the server ends nothing", async () => {
    const { discord, bot, test } = running;
    const { session } = await activeSession();
    const channelId = discord.channels['brainstorm']!.id;
    discord.removeBotFromGuild(discord.guildId, { outage: true });
    await test.settle();
    expect((await sessionNow(session.id)).status).toBe('active');
    discord.removeBotFromGuild(discord.guildId);
    await bot.handled(`closure-${channelId}`);
    await test.settle();
    const ended = await sessionNow(session.id);
    expect(ended.status).toBe('stopped');
    expect(ended.endReason).toBe(CLOSURE_REASONS.botRemoved);
  });

  it('deleting the brainstorm channel ends every session opened from it', async () => {
    const { discord, bot, test } = running;
    const first = await activeSession();
    const second = await activeSession('Should we move our CI to self-hosted runners?');
    const channelId = discord.channels['brainstorm']!.id;
    discord.deleteChannel(channelId);
    await bot.handled(`closure-${channelId}`);
    await test.settle();
    for (const { session } of [first, second]) {
      const ended = await sessionNow(session.id);
      expect(ended.status).toBe('stopped');
      expect(ended.endReason).toBe(CLOSURE_REASONS.channelDeleted);
    }
  });
});
