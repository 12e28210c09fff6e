import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordTransportError } from '../../../src/bot/discord-errors.ts';
import { APPROVE_BUTTON_ID, SIMULATED_MARKER } from '../../../src/bot/message-format.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import type { DeliveryProgress, OutgoingMessage } from '../../../src/core/ports.ts';
import type { RecordedMessage } from '../../fakes/discord/index.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.ts';

const claude: Speaker = { kind: 'participant', name: 'Claude', id: 'claude', avatarUrl: 'https://example.org/claude.png' };
const gpt: Speaker = { kind: 'participant', name: 'ChatGPT', id: 'chatgpt', avatarUrl: 'https://example.org/gpt.png' };
const grok: Speaker = { kind: 'participant', name: 'Grok', id: 'grok' };

let harness: DiscordHarness;

beforeAll(async () => {
  harness = await startDiscordHarness();
});
afterAll(async () => {
  await harness?.stop();
});

function outgoing(speaker: Speaker, content: string, extra: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return { speaker, content, replyTo: [], ...extra };
}

function progress(previewExternalId: string | null = null, delivered: string[] = []): DeliveryProgress & { recorded: string[] } {
  const recorded: string[] = [];
  return {
    previewExternalId,
    deliveredExternalIds: delivered,
    recorded,
    async onChunkDelivered(externalId) {
      recorded.push(externalId);
    },
  };
}

async function openRoom(title: string): Promise<string> {
  const { fake } = harness;
  const topic = fake.post(fake.channels['brainstorm']!.id, fake.people.ada, title);
  const room = await harness.bot.transport.openRoom({ originChannelId: fake.channels['brainstorm']!.id, originMessageId: topic.id, title });
  return room.roomId;
}

function longAnswer(): string {
  const paragraphs = Array.from(
    { length: 6 },
    (_, index) => `Point ${index + 1}: ${'we should weigh the rollout risk against the speed of learning. '.repeat(12)}`,
  );
  return `${paragraphs.join('\n\n')}\n\n\`\`\`ts\n${Array.from({ length: 40 }, (_, index) => `const flag${index} = client.isEnabled('feature-${index}');`).join('\n')}\n\`\`\``;
}

describe('DiscordTransport against the fake Discord', () => {
  it('opens a thread on the topic message, named from the title within 100 characters', async () => {
    const title = `How should a small team adopt feature flags ${'and more '.repeat(20)}`;
    const roomId = await openRoom(title);
    const thread = harness.fake.state.channels.get(roomId)!;
    expect(thread.kind).toBe('thread');
    expect(thread.parentId).toBe(harness.fake.channels['brainstorm']!.id);
    expect(harness.fake.state.findMessage(roomId)?.threadId).toBe(roomId);
    expect(thread.name.length).toBeLessThanOrEqual(100);
    expect(thread.name.startsWith('How should a small team adopt feature flags')).toBe(true);
  });

  it('posts each persona under its own name and avatar through one webhook, in the thread, pinging nobody', async () => {
    const roomId = await openRoom('Personas');
    const transport = harness.bot.transport;
    await transport.deliver(roomId, outgoing(claude, 'I think @everyone should read this <@' + harness.fake.people.bob.id + '>'), progress());
    await transport.deliver(roomId, outgoing(gpt, 'Agreed.'), progress());
    await transport.deliver(roomId, outgoing(grok, 'Counterpoint.'), progress());
    const messages = harness.fake.messagesIn(roomId);
    expect(messages.map((message) => [message.displayName, message.origin])).toEqual([
      ['Claude', 'webhook'],
      ['ChatGPT', 'webhook'],
      ['Grok', 'webhook'],
    ]);
    expect(messages[0]!.avatarUrl).toBe('https://example.org/claude.png');
    expect(new Set(messages.map((message) => message.webhookId)).size).toBe(1);
    const webhooks = [...harness.fake.state.webhooks.values()].filter((hook) => hook.channelId === harness.fake.channels['brainstorm']!.id && !hook.deleted);
    expect(webhooks).toHaveLength(1);
    for (const message of messages) expect(message.allowedMentions).toEqual({ parse: [] });
    expect(messages[0]!.mentions).toEqual({ everyone: false, userIds: [], roleIds: [] });
    const webhookCalls = harness.fake.router.log.filter((entry) => entry.routeName === 'webhook.execute');
    expect(webhookCalls.at(-1)?.body['allowed_mentions']).toEqual({ parse: [] });
  });

  it('splits a long answer under 2000 characters, edits the preview into the first chunk, and reports each chunk but the last as it goes', async () => {
    const roomId = await openRoom('Long answers');
    const transport = harness.bot.transport;
    const previewId = await transport.postPreview(roomId, outgoing(claude, 'Point 1: we should'));
    const firstEdit = transport.editPreview(roomId, previewId, outgoing(claude, 'Point 1: we'));
    const newerEdit = transport.editPreview(roomId, previewId, outgoing(claude, 'Point 1: we should weigh'));
    await harness.clock.advance(1000);
    await Promise.all([firstEdit, newerEdit]);
    const track = progress(previewId);
    const result = await settleWithClock(transport.deliver(roomId, outgoing(claude, longAnswer()), track), harness.clock);
    const messages = harness.fake.messagesIn(roomId);
    expect(result.externalIds[0]).toBe(previewId);
    // The last chunk's id is returned only: the delivery service stores it in the statement that marks the message delivered.
    expect(track.recorded).toEqual(result.externalIds.slice(0, -1));
    expect(messages.map((message) => message.id)).toEqual(result.externalIds);
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(messages.at(-1)!.content.startsWith('```ts\n')).toBe(true);
    expect(messages[0]!.history).toEqual(['Point 1: we should', 'Point 1: we should weigh']);
    expect(result.url).toBe(`https://discord.com/channels/${harness.fake.guildId}/${roomId}/${previewId}`);
  });

  it('resumes a delivery without posting a chunk twice', async () => {
    const roomId = await openRoom('Resume');
    const transport = harness.bot.transport;
    const first = await transport.deliver(roomId, outgoing(gpt, longAnswer()), progress());
    const before = harness.fake.messagesIn(roomId).length;
    const again = await transport.deliver(roomId, outgoing(gpt, longAnswer()), progress(null, first.externalIds.slice(0, 2)));
    const after = harness.fake.messagesIn(roomId);
    expect(after.length - before).toBe(first.externalIds.length - 2);
    expect(again.externalIds.slice(0, 2)).toEqual(first.externalIds.slice(0, 2));
    const finished = await transport.deliver(roomId, outgoing(gpt, longAnswer()), progress(null, first.externalIds));
    expect(finished.externalIds).toEqual(first.externalIds);
    expect(harness.fake.messagesIn(roomId)).toHaveLength(after.length);
  });

  it('shows replies as one line with jump links, marks simulated text, and puts the approve button on the last chunk', async () => {
    const roomId = await openRoom('Formatting');
    const transport = harness.bot.transport;
    const replyTo = [{ messageId: 1, externalId: 'x', speakerName: 'Grok', excerpt: 'Ship it\nnow', url: 'https://discord.com/channels/1/2/3' }];
    await transport.deliver(roomId, outgoing(claude, 'I disagree.', { replyTo, simulated: true }), progress());
    await transport.deliver(roomId, outgoing({ kind: 'planner', name: 'Planner' }, 'Proposed plan: ...', { actions: ['approve_plan'] }), progress());
    const [reply, plan] = harness.fake.messagesIn(roomId) as [RecordedMessage, RecordedMessage];
    expect(reply.content).toBe(`-# ↪ replying to Grok [#1](<https://discord.com/channels/1/2/3>)\nI disagree.\n${SIMULATED_MARKER}`);
    expect(plan.components).toEqual([{ type: 1, components: [expect.objectContaining({ type: 2, custom_id: APPROVE_BUTTON_ID })] }]);
  });

  it('never sends a username Discord refuses', async () => {
    const roomId = await openRoom('Names');
    await harness.bot.transport.deliver(roomId, outgoing({ kind: 'participant', name: `Clyde the Discord ${'bot '.repeat(30)}` }, 'hello'), progress());
    const [message] = harness.fake.messagesIn(roomId);
    expect(message!.displayName.length).toBeLessThanOrEqual(80);
    expect(message!.displayName.toLowerCase()).not.toContain('clyde');
    expect(message!.displayName.toLowerCase()).not.toContain('discord');
  });

  it('recreates the webhook when Discord says it is gone (10015)', async () => {
    const roomId = await openRoom('Webhook deleted');
    const transport = harness.bot.transport;
    await transport.deliver(roomId, outgoing(claude, 'before'), progress());
    const [before] = harness.fake.messagesIn(roomId);
    harness.fake.deleteWebhook(before!.webhookId!);
    await transport.deliver(roomId, outgoing(claude, 'after'), progress());
    const messages = harness.fake.messagesIn(roomId);
    expect(messages.map((message) => message.content)).toEqual(['before', 'after']);
    expect(messages[1]!.webhookId).not.toBe(before!.webhookId);
    expect(harness.fake.router.log.some((entry) => entry.routeName === 'webhook.execute' && entry.status === 404)).toBe(true);
  });

  it('keeps every message once, in order, under 2000 characters through a burst of 429s', async () => {
    const roomId = await openRoom('Rate limits');
    const transport = harness.bot.transport;
    harness.fake.injectRateLimit({ route: 'webhook.execute', count: 4, retryAfterSeconds: 0.05 });
    const speakers = [claude, gpt, grok];
    const texts = Array.from({ length: 6 }, (_, index) => `Message ${index}: ${index === 2 ? longAnswer() : 'short'}`);
    const results = await Promise.all(texts.map((text, index) => transport.deliver(roomId, outgoing(speakers[index % 3]!, text), progress())));
    const messages = harness.fake.messagesIn(roomId);
    expect(harness.fake.rateLimits.pendingInjected).toBe(0);
    expect(harness.fake.rateLimits.hits.filter((hit) => hit.injected)).toHaveLength(4);
    expect(messages.map((message) => message.id)).toEqual(results.flatMap((result) => result.externalIds));
    expect(messages.filter((message) => message.content.startsWith('Message ')).map((message) => message.content.slice(0, 10))).toEqual(
      texts.map((text) => text.slice(0, 10)),
    );
    for (const message of messages) expect(message.content.length).toBeLessThanOrEqual(2000);
  });

  it('falls back to bot messages with an embed author without Manage Webhooks, with one notice naming the permission', async () => {
    const { fake } = harness;
    const fresh = fake.state.addTextChannel('no-webhooks');
    fake.setBotPermission(PermissionFlagsBits.ManageWebhooks, false);
    try {
      const topic = fake.post(fresh.id, fake.people.ada, 'Fallback');
      const { roomId } = await harness.bot.transport.openRoom({ originChannelId: fresh.id, originMessageId: topic.id, title: 'Fallback' });
      await harness.bot.transport.deliver(roomId, outgoing(claude, 'Hello @everyone'), progress());
      const previewId = await harness.bot.transport.postPreview(roomId, outgoing(gpt, 'H'));
      await harness.bot.transport.deliver(roomId, outgoing(gpt, 'Hi'), progress(previewId));
      const messages = fake.messagesIn(roomId);
      expect(fake.state.findMessage(previewId)?.embeds[0]?.description).toBe('Hi');
      const notices = messages.filter((message) => message.content.includes('Manage Webhooks'));
      expect(notices).toHaveLength(1);
      const personas = messages.filter((message) => message.embeds.length > 0);
      expect(personas.map((message) => [message.origin, message.embeds[0]?.author?.name, message.embeds[0]?.description])).toEqual([
        ['bot', 'Claude', 'Hello @everyone'],
        ['bot', 'ChatGPT', 'Hi'],
      ]);
      expect(personas[0]!.embeds[0]?.author?.icon_url).toBe('https://example.org/claude.png');
      for (const message of messages) expect(message.allowedMentions).toEqual({ parse: [] });
    } finally {
      fake.setBotPermission(PermissionFlagsBits.ManageWebhooks, true);
    }
  });

  it('maps a missing room to a typed not_found error and keeps serving other rooms', async () => {
    const roomId = await openRoom('Still fine');
    const failure = await harness.bot.transport.deliver('999999999999999999', outgoing(claude, 'lost'), progress()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiscordTransportError);
    expect((failure as DiscordTransportError).code).toBe('not_found');
    expect((failure as DiscordTransportError).failure).toBe('unknown_channel');
    await harness.bot.transport.deliver(roomId, outgoing(claude, 'fine'), progress());
    expect(harness.fake.messagesIn(roomId).map((message) => message.content)).toEqual(['fine']);
  });

  it('shows typing in the room', async () => {
    const roomId = await openRoom('Typing');
    await harness.bot.transport.sendTyping(roomId);
    expect(harness.fake.state.typing.some((entry) => entry.channelId === roomId)).toBe(true);
  });
});
