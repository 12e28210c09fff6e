/**
 * Issue 4 "Done when": a real discord.js client against the fake Discord, the whole app behind it (createApp),
 * models from the fake OpenRouter. Topic -> thread -> questions -> answers -> plan -> approve (button, and
 * `!approve` in a second thread) -> three personas -> a 429 burst -> every message once, in order, under 2000
 * characters -> `/brainstorm focus on:` -> `/brainstorm stop` -> closing message; a non-admin's `!config` refused; `@everyone` pings nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscordBot } from '../../src/bot/discord-bot.ts';
import { APPROVE_BUTTON_ID } from '../../src/bot/message-format.ts';
import { type FakeDiscord, type FakeUser, type RecordedMessage } from '../fakes/discord/index.ts';
import type { FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { startDiscordApp, type DiscordApp } from '../support/discord-app.ts';
import type { TestApp } from '../support/test-app.ts';

let discord: FakeDiscord;
let models: FakeOpenRouter;
let bot: DiscordBot;
let test: TestApp;

let running: DiscordApp;
beforeAll(async () => {
  running = await startDiscordApp({ MAX_AI_ROUNDS_WITHOUT_HUMAN: '1' });
  ({ discord, models, bot, test } = running);
});
afterAll(async () => running?.stop());

const brainstorm = () => discord.channels['brainstorm']!.id;

/** A person posts; waits until the bot has handled it and the app has done everything it leads to. */
async function say(channelId: string, person: FakeUser, content: string): Promise<RecordedMessage> {
  const message = discord.post(channelId, person, content);
  await bot.handled(message.id);
  await test.settle();
  return message;
}

function personaMessages(roomId: string): RecordedMessage[] {
  return discord.messagesIn(roomId).filter((message) => message.origin === 'webhook');
}

async function planFor(topic: string): Promise<{ roomId: string; plan: RecordedMessage }> {
  const post = await say(brainstorm(), discord.people.ada, topic);
  const roomId = post.threadId!;
  expect(discord.state.channels.get(roomId)?.kind).toBe('thread');
  const questions = personaMessages(roomId).at(-1)!;
  expect(questions.displayName).toBe('Planner');
  expect(questions.content).toMatch(/question/i);
  await say(roomId, discord.people.ada, 'We are 5 engineers shipping a SaaS; we want safer releases.');
  const plan = personaMessages(roomId).at(-1)!;
  expect(plan.content).toMatch(/plan/i);
  return { roomId, plan };
}

describe('a brainstorm in Discord, end to end', () => {
  let roomId = '';

  it('opens a thread for a topic, asks questions, proposes a plan with an approve button', async () => {
    const result = await planFor('How should a small team adopt feature flags?');
    roomId = result.roomId;
    const lastChunk = personaMessages(roomId).at(-1)!;
    expect(lastChunk.components).toEqual([{ type: 1, components: [expect.objectContaining({ custom_id: APPROVE_BUTTON_ID })] }]);
  });

  it('approves by button; three personas answer under three names, pinging nobody', async () => {
    models.script({ participant: 'Claude' }, { kind: 'text', text: 'Flag everything behind a kill switch. @everyone please read.' });
    const plan = personaMessages(roomId).at(-1)!;
    const click = discord.clickButton(plan, APPROVE_BUTTON_ID, discord.people.ada);
    await bot.handled(click.id);
    await test.settle();
    expect(click.responses.map((response) => response.kind)).toEqual(['callback', 'edit_original']);
    expect(discord.state.findMessage(click.originalMessageId!)?.content).toMatch(/approved/i);
    const names = new Set(personaMessages(roomId).map((message) => message.displayName));
    for (const name of ['Claude', 'ChatGPT', 'Grok']) expect(names.has(name)).toBe(true);
    // Claude was handed an answer with @everyone; whatever reached Discord (the output guardrail may have
    // replaced it) went out with empty allowed_mentions and pinged nobody.
    expect(models.pending({ participant: 'Claude' })).toBe(0);
    for (const message of personaMessages(roomId)) {
      expect(message.allowedMentions).toEqual({ parse: [] });
      expect(message.mentions.everyone).toBe(false);
    }
  });

  it('approves by !approve in a second thread running at the same time', async () => {
    const second = await planFor('Should we move our CI to self-hosted runners?');
    expect(second.roomId).not.toBe(roomId);
    await say(second.roomId, discord.people.bob, '!approve');
    const speakers = new Set(personaMessages(second.roomId).map((message) => message.displayName));
    expect(speakers.has('Claude') || speakers.has('ChatGPT') || speakers.has('Grok')).toBe(true);
  });

  it('delivers every message once, in order, under 2000 characters through a 429 burst', async () => {
    const long = Array.from(
      { length: 8 },
      (_, index) => `Step ${index + 1}: ${'roll out to a small cohort, watch the error budget, then widen. '.repeat(8)}`,
    ).join('\n\n');
    models.script({ participant: 'Grok' }, { kind: 'text', text: long });
    discord.injectRateLimit({ route: ['webhook.execute', 'webhook.message.edit'], count: 5, retryAfterSeconds: 0.05 });
    await say(roomId, discord.people.bob, 'What about the cost of stale flags?');
    expect(discord.rateLimits.pendingInjected).toBe(0);
    const stored = await test.app.repositories.messages.listForSession((await test.app.repositories.sessions.findByRoom('discord', roomId))!.id);
    const delivered = stored.filter((message) => message.deliveryStatus === 'delivered' && message.speaker.kind !== 'human');
    const visible = discord.messagesIn(roomId).filter((message) => message.origin === 'webhook' || message.origin === 'bot');
    // Once: every visible message is exactly one chunk of one stored message, and every chunk is visible.
    const chunkIds = delivered.flatMap((message) => message.externalIds);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    expect(visible.map((message) => message.id).sort()).toEqual([...chunkIds].sort());
    // In order: final texts landed in the order the app stored them (previews are edited into place)...
    const landed = (message: (typeof delivered)[number]) => discord.state.findMessage(message.externalIds[0]!)!.revision;
    expect([...delivered].sort((left, right) => landed(left) - landed(right)).map((message) => message.id)).toEqual(delivered.map((message) => message.id));
    // ...and the chunks of one message follow each other in the thread.
    for (const message of delivered) {
      const positions = message.externalIds.map((id) => visible.findIndex((entry) => entry.id === id));
      expect(positions).toEqual([...positions].sort((left, right) => left - right));
    }
    for (const message of discord.messagesIn(roomId)) expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(personaMessages(roomId).filter((message) => message.displayName === 'Grok' && message.content.includes('Step 8')).length).toBe(1);
  });

  it("refuses a non-admin's !config and says why", async () => {
    const command = await say(roomId, discord.people.bob, '!config max_messages 5');
    const reply = discord.messagesIn(roomId).find((message) => message.origin === 'bot' && message.content.includes('admin'));
    expect(reply).toBeDefined();
    expect(
      discord.router.log.find(
        (entry) => entry.routeName === 'message.create' && (entry.body['message_reference'] as { message_id?: string } | undefined)?.message_id === command.id,
      ),
    ).toBeDefined();
  });

  it('refocuses on what /brainstorm focus on: names', async () => {
    const registered = discord.state.commands.find((command) => command.body['name'] === 'brainstorm')!;
    const focus = (registered.body['options'] as Array<{ name: string; options?: Array<{ name: string; required?: boolean }> }>).find(
      (option) => option.name === 'focus',
    );
    expect(focus?.options).toEqual([expect.objectContaining({ name: 'on', required: false })]);
    const command = discord.runSlashCommand({
      channelId: roomId,
      user: discord.people.ada,
      command: 'brainstorm',
      subcommand: 'focus',
      options: { on: 'kill switches' },
    });
    await bot.handled(command.id);
    await test.settle();
    expect(discord.state.findMessage(command.originalMessageId!)?.content).toBe('The Moderator has asked everyone to focus on “kill switches”.');
    const check = models.chats.filter((chat) => chat.agent.role === 'moderator' && JSON.stringify(chat.body.messages).includes('"Moderation check ('));
    expect(JSON.stringify(check.at(-1)?.body.messages)).toContain('refocus the discussion on \\"kill switches\\"');
  });

  it('!record posts the detailed record so far as a Markdown file, brought up to the last message', async () => {
    await say(roomId, discord.people.ada, 'One more point: every flag needs an owner.');
    const command = await say(roomId, discord.people.ada, '!record');
    const session = (await test.app.repositories.sessions.findByRoom('discord', roomId))!;
    const posted = personaMessages(roomId).find((message) => message.displayName === 'Scribe' && message.attachments.length > 0);
    expect(posted?.attachments.map((file) => file.filename)).toEqual(['detailed-record.md']);
    const file = new URL(posted!.attachments[0]!.url);
    const record = await (await fetch(`${discord.cdnUrl}${file.pathname}${file.search}`)).text();
    expect(record).toBe((await test.app.repositories.documents.find(session.id, 'record'))?.content);
    expect(record).toContain('every flag needs an owner');
    expect(discord.messagesIn(roomId).some((message) => message.origin === 'bot' && message.content === 'Record posted.')).toBe(true);
    expect(command.id).toBeTruthy();
  });

  it('stops with /brainstorm stop and posts a closing message', async () => {
    const before = discord.messagesIn(roomId).length;
    const stop = discord.runSlashCommand({ channelId: roomId, user: discord.people.ada, command: 'brainstorm', subcommand: 'stop' });
    await bot.handled(stop.id);
    await test.settle();
    expect(stop.responses[0]?.callbackType).toBe(5);
    const after = discord.messagesIn(roomId).slice(before);
    expect(after.map((message) => message.content).join('\n')).toMatch(/stop/i);
    const session = await test.app.repositories.sessions.findByRoom('discord', roomId);
    expect(session?.status).toBe('stopped');
  });

  it('hands the record and the TLDR over as Markdown files after the closing (no Notion here to link to)', async () => {
    const session = (await test.app.repositories.sessions.findByRoom('discord', roomId))!;
    const handedOver = personaMessages(roomId).at(-1)!;
    expect(handedOver.displayName).toBe('Scribe');
    expect(handedOver.attachments.map((file) => file.filename)).toEqual(['detailed-record.md', 'tldr.md']);
    const record = handedOver.attachments[0]!;
    const served = await fetch(`${discord.cdnUrl}${new URL(record.url).pathname}${new URL(record.url).search}`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe((await test.app.repositories.documents.find(session.id, 'record'))?.content);
  });
});
