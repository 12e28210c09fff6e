/**
 * A brainstorm channel can be a forum: each post a person opens is a topic, and its session lives in that post (no
 * second thread). The Planner asks and proposes there, the plan is approved there, and the participants answer
 * there under their own names (the forum's webhook, into the post). The post's title is part of the topic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../fakes/discord/index.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';

let running: DiscordApp;
beforeAll(async () => {
  running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' }, { discord: { forumNames: ['ideas'] }, brainstormChannels: ['brainstorm', 'ideas'] });
});
afterAll(async () => running?.stop());

describe('a forum as the brainstorm channel', () => {
  let postId = '';

  it('a new post opens a session in that post, with its title in the topic', async () => {
    const { discord, bot, test } = running;
    const forumId = discord.channels['ideas']!.id;
    const first: RecordedMessage = discord.createForumPost(
      forumId,
      discord.people.ada,
      'Onboarding for first-time admins',
      'What should the first screen show?',
    );
    postId = first.channelId;
    await bot.handled(first.id);
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom('discord', postId);
    expect(session).toMatchObject({ roomId: postId, status: expect.stringMatching(/planning|awaiting_approval/) });
    expect(session!.topic).toMatch(/Onboarding for first-time admins/);
    expect(session!.topic).toMatch(/What should the first screen show\?/);
    // No second thread: the post is the room, and the Planner spoke in it.
    expect([...discord.state.channels.values()].filter((channel) => channel.kind === 'thread').map((thread) => thread.id)).toEqual([postId]);
    expect(discord.messagesIn(postId).some((message) => message.origin !== 'person')).toBe(true);
  });

  it('the plan is approved in the post and the participants answer there under their own names', async () => {
    const { discord, test } = running;
    await postAndSettle(running, postId, discord.people.ada, 'A B2B analytics tool; admins set it up for their team.');
    await postAndSettle(running, postId, discord.people.ada, '!approve');
    expect((await test.app.repositories.sessions.findByRoom('discord', postId))?.status).toBe('active');
    await postAndSettle(running, postId, discord.people.bob, 'Should the first screen be a checklist?');
    const personas = discord
      .messagesIn(postId)
      .filter((message) => message.origin === 'webhook')
      .map((message) => message.displayName);
    expect(personas).toEqual(expect.arrayContaining(['Claude', 'ChatGPT', 'Grok']));
  });

  it('a session started without a post of its own (a slash command) opens one in the forum', async () => {
    const { discord, bot } = running;
    const opened = await bot.transport.openRoom({ originChannelId: discord.channels['ideas']!.id, originMessageId: null, title: 'Pricing the team plan' });
    const post = discord.state.channels.get(opened.roomId);
    expect(post).toMatchObject({ kind: 'thread', parentId: discord.channels['ideas']!.id, name: expect.stringContaining('Pricing the team plan') });
    expect(discord.messagesIn(opened.roomId)[0]).toMatchObject({ id: opened.roomId, content: '**Brainstorm:** Pricing the team plan' });
  });
});
