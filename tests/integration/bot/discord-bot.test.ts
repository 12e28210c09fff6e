import { MessageFlags } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPROVE_BUTTON_ID } from '../../../src/bot/message-format.ts';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.ts';

let harness: DiscordHarness;

beforeAll(async () => {
  harness = await startDiscordHarness();
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(() => {
  harness.gateway.messages.length = 0;
  harness.gateway.commands.length = 0;
  harness.gateway.messageReply = () => null;
  harness.gateway.commandReply = (invocation) => ({ content: `ran ${invocation.name}`, private: false });
});

const brainstorm = () => harness.fake.channels['brainstorm']!.id;

async function openThread(title: string): Promise<string> {
  const topic = harness.fake.post(brainstorm(), harness.fake.people.ada, title);
  await harness.bot.handled(topic.id);
  return (await harness.bot.transport.openRoom({ originChannelId: brainstorm(), originMessageId: topic.id, title })).roomId;
}

describe('DiscordBot events', () => {
  it('registers /brainstorm with every subcommand in the guild by bulk PUT', () => {
    const [command] = harness.fake.state.commands;
    expect(command?.body['name']).toBe('brainstorm');
    const subcommands = (command?.body['options'] as { name: string }[]).map((option) => option.name);
    expect(subcommands).toEqual([
      'start',
      'preset',
      'approve',
      'stop',
      'pause',
      'continue',
      'status',
      'refresh',
      'focus',
      'summary',
      'record',
      'steps',
      'done',
      'reopen',
      'ideas',
      'explore',
      'config',
      'enable',
      'disable',
      'reset',
    ]);
    expect(harness.fake.router.log.some((entry) => entry.method === 'PUT' && entry.routeName === 'commands.bulk_overwrite' && entry.status === 200)).toBe(true);
  });

  it('hands a topic in the brainstorm channel to the gateway with no room, and a thread message with its room', async () => {
    const { fake } = harness;
    const topic = fake.post(brainstorm(), fake.people.bob, 'Should we rewrite the billing service?');
    await harness.bot.handled(topic.id);
    const { roomId } = await harness.bot.transport.openRoom({ originChannelId: brainstorm(), originMessageId: topic.id, title: 'Billing' });
    const answer = fake.post(roomId, fake.people.bob, 'We have 3 engineers.');
    await harness.bot.handled(answer.id);
    expect(harness.gateway.messages).toEqual([
      {
        transport: 'discord',
        roomId: null,
        channelId: brainstorm(),
        externalId: topic.id,
        author: { id: fake.people.bob.id, name: 'bob', isAdmin: false },
        content: 'Should we rewrite the billing service?',
        url: `https://discord.com/channels/${fake.guildId}/${brainstorm()}/${topic.id}`,
      },
      expect.objectContaining({ roomId, channelId: brainstorm(), externalId: answer.id, content: 'We have 3 engineers.' }),
    ]);
  });

  it('ignores bots, webhooks, and channels that are not brainstorm channels', async () => {
    const { fake } = harness;
    const roomId = await openThread('Ignore');
    harness.gateway.messages.length = 0;
    const elsewhere = fake.post(fake.channels['general']!.id, fake.people.bob, 'unrelated');
    await harness.bot.transport.deliver(
      roomId,
      { speaker: { kind: 'participant', name: 'Claude' }, content: 'AI text', replyTo: [] },
      { previewExternalId: null, deliveredExternalIds: [], onChunkDelivered: async () => undefined },
    );
    const [webhookMessage] = fake.messagesIn(roomId);
    const person = fake.post(roomId, fake.people.bob, 'a person');
    await Promise.all([harness.bot.handled(elsewhere.id), harness.bot.handled(webhookMessage!.id), harness.bot.handled(person.id)]);
    expect(harness.gateway.messages.map((message) => message.content)).toEqual(['a person']);
  });

  it('marks admins by Manage Server or the admin role', async () => {
    const { fake } = harness;
    const posts = [fake.people.ada, fake.people.fay, fake.people.bob, fake.people.owner].map((person) =>
      fake.post(brainstorm(), person, `hi from ${person.username}`),
    );
    await Promise.all(posts.map((post) => harness.bot.handled(post.id)));
    expect(harness.gateway.messages.map((message) => [message.author.name, message.author.isAdmin])).toEqual([
      ['ada', true],
      ['fay', true],
      ['bob', false],
      ['olivia', true],
    ]);
  });

  it("posts the gateway's reply to a message as a plain reply that pings nobody", async () => {
    const { fake } = harness;
    harness.gateway.messageReply = () => ({ content: '`!config` is for admins. @everyone', private: true });
    const command = fake.post(brainstorm(), fake.people.bob, '!config max_messages 5');
    await harness.bot.handled(command.id);
    const reply = fake.messagesIn(brainstorm()).at(-1)!;
    expect(reply.origin).toBe('bot');
    expect(reply.content).toBe('`!config` is for admins. @everyone');
    expect(reply.mentions.everyone).toBe(false);
    expect(fake.router.log.filter((entry) => entry.routeName === 'message.create').at(-1)?.body['message_reference']).toMatchObject({ message_id: command.id });
  });

  it('defers a slash command at once, then shows the reply; a private reply only to the person', async () => {
    const { fake } = harness;
    const roomId = await openThread('Commands');
    const visible = fake.runSlashCommand({ channelId: roomId, user: fake.people.bob, command: 'brainstorm', subcommand: 'status' });
    await harness.bot.handled(visible.id);
    expect(visible.responses.map((response) => response.kind)).toEqual(['callback', 'edit_original']);
    expect(visible.responses[0]?.callbackType).toBe(5);
    expect(fake.state.findMessage(visible.originalMessageId!)?.content).toBe('ran status');
    harness.gateway.commandReply = () => ({ content: '`!config` is for admins.', private: true });
    const refused = fake.runSlashCommand({
      channelId: roomId,
      user: fake.people.bob,
      command: 'brainstorm',
      subcommand: 'config',
      options: { setting: 'max_messages', value: '5' },
    });
    await harness.bot.handled(refused.id);
    expect(refused.responses.map((response) => [response.kind, response.ephemeral])).toEqual([
      ['callback', false],
      ['delete_original', false],
      ['followup', true],
    ]);
    expect(harness.gateway.commands.map((command) => [command.name, command.args, command.roomId, command.author.isAdmin])).toEqual([
      ['status', '', roomId, false],
      ['config', 'max_messages 5', roomId, false],
    ]);
  });

  it('approves by button', async () => {
    const { fake } = harness;
    const roomId = await openThread('Button');
    await harness.bot.transport.deliver(
      roomId,
      { speaker: { kind: 'planner', name: 'Planner' }, content: 'Plan', replyTo: [], actions: ['approve_plan'] },
      { previewExternalId: null, deliveredExternalIds: [], onChunkDelivered: async () => undefined },
    );
    const plan = fake.messagesIn(roomId).at(-1)!;
    const click = fake.clickButton(plan, APPROVE_BUTTON_ID, fake.people.ada);
    await harness.bot.handled(click.id);
    expect(harness.gateway.commands).toEqual([
      expect.objectContaining({ name: 'approve', args: '', roomId, author: expect.objectContaining({ isAdmin: true }) }),
    ]);
    expect(click.responses.map((response) => response.kind)).toEqual(['callback', 'edit_original']);
  });

  it('ticks a next step by its button: the room hears who did, and the list under the button shows the box ticked', async () => {
    const { fake } = harness;
    const roomId = await openThread('Steps');
    const button = { label: 'Done 2', command: 'done', args: '2@0a1b2c3d', then: 'steps' };
    const list = (ticked: boolean) => ({
      content: `**Next steps**\n☑ 1. Book the venue\n${ticked ? '☑' : '☐'} 2. Ask for dates`,
      private: false,
      buttons: ticked ? [] : [button],
    });
    harness.gateway.messageReply = () => list(false);
    const typed = fake.post(roomId, fake.people.bob, '!steps');
    await harness.bot.handled(typed.id);
    const shown = fake.messagesIn(roomId).at(-1)!;
    expect(shown.components).toEqual([
      { type: 1, components: [expect.objectContaining({ type: 2, custom_id: 'brainstorm:run:done:2@0a1b2c3d:steps', label: 'Done 2' })] },
    ]);

    harness.gateway.commandReply = (invocation) =>
      invocation.name === 'steps' ? list(true) : { content: '☑ 2. Ask for dates — done, by bob.', private: false };
    const click = fake.clickButton(shown, 'brainstorm:run:done:2@0a1b2c3d:steps', fake.people.bob);
    await harness.bot.handled(click.id);
    expect(harness.gateway.commands.map(({ name, args, roomId: room }) => ({ name, args, room }))).toEqual([
      { name: 'done', args: '2@0a1b2c3d', room: roomId },
      { name: 'steps', args: '', room: roomId },
    ]);
    expect(fake.messagesIn(roomId).at(-1)?.content).toBe('☑ 2. Ask for dates — done, by bob.');
    const edited = fake.state.findMessage(shown.id)!;
    expect(edited.content).toContain('☑ 2. Ask for dates');
    expect(edited.components ?? []).toEqual([]);

    // A refusal is shown only to the person who pressed, and the list stays as it was.
    harness.gateway.commands.length = 0;
    harness.gateway.messageReply = () => list(false);
    const again = fake.post(roomId, fake.people.bob, '!steps');
    await harness.bot.handled(again.id);
    const stale = fake.messagesIn(roomId).at(-1)!;
    harness.gateway.commandReply = () => ({ content: 'That step is no longer in the record.', private: true });
    const refused = fake.clickButton(stale, 'brainstorm:run:done:2@0a1b2c3d:steps', fake.people.ada);
    await harness.bot.handled(refused.id);
    expect(harness.gateway.commands.map((command) => command.name)).toEqual(['done']);
    expect(refused.responses.map((response) => [response.kind, response.ephemeral])).toEqual([
      ['callback', false],
      ['followup', true],
    ]);
    expect(fake.state.findMessage(stale.id)?.components).toEqual([{ type: 1, components: [expect.objectContaining({ label: 'Done 2' })] }]);

    // `/brainstorm steps` shows the same buttons under its reply.
    harness.gateway.commandReply = () => list(false);
    const slash = fake.runSlashCommand({ channelId: roomId, user: fake.people.bob, command: 'brainstorm', subcommand: 'steps' });
    await harness.bot.handled(slash.id);
    expect(fake.state.findMessage(slash.originalMessageId!)?.components).toEqual([
      { type: 1, components: [expect.objectContaining({ custom_id: 'brainstorm:run:done:2@0a1b2c3d:steps' })] },
    ]);
  });

  it('starts a session from /brainstorm start: the reply is the topic message the thread opens on', async () => {
    const { fake } = harness;
    let openedRoom = '';
    harness.gateway.messageReply = () => null;
    const start = fake.runSlashCommand({
      channelId: brainstorm(),
      user: fake.people.ada,
      command: 'brainstorm',
      subcommand: 'start',
      options: { topic: 'Pricing for the new plan' },
    });
    await harness.bot.handled(start.id);
    const [inbound] = harness.gateway.messages;
    expect(inbound).toMatchObject({ roomId: null, channelId: brainstorm(), externalId: start.originalMessageId, content: 'Pricing for the new plan' });
    openedRoom = (await harness.bot.transport.openRoom({ originChannelId: brainstorm(), originMessageId: inbound!.externalId, title: inbound!.content }))
      .roomId;
    expect(openedRoom).toBe(start.originalMessageId);
    expect(fake.state.findMessage(openedRoom)?.content).toContain('Pricing for the new plan');
  });

  it('refuses commands outside the brainstorm channels, privately', async () => {
    const { fake } = harness;
    const elsewhere = fake.runSlashCommand({ channelId: fake.channels['general']!.id, user: fake.people.bob, command: 'brainstorm', subcommand: 'status' });
    await harness.bot.handled(elsewhere.id);
    expect(harness.gateway.commands).toEqual([]);
    expect(elsewhere.responses).toEqual([expect.objectContaining({ kind: 'callback', callbackType: 4, ephemeral: true })]);
    expect(fake.state.findMessage(elsewhere.originalMessageId!)?.flags ?? 0).toBe(MessageFlags.Ephemeral);
  });

  it('resumes after the gateway drops and still answers', async () => {
    const { fake } = harness;
    const resumedBefore = fake.gateway.stats.resumes;
    const resumed = new Promise<void>((resolve) => harness.bot.client.once('shardResume', () => resolve()));
    fake.disconnectGateway(4000);
    const during = fake.post(brainstorm(), fake.people.bob, 'said while disconnected');
    await resumed;
    await harness.bot.handled(during.id);
    const after = fake.post(brainstorm(), fake.people.bob, 'said after the resume');
    await harness.bot.handled(after.id);
    expect(fake.gateway.stats.resumes).toBe(resumedBefore + 1);
    expect(fake.gateway.stats.identifies).toBe(1);
    expect(harness.gateway.messages.map((message) => message.content)).toEqual(['said while disconnected', 'said after the resume']);
  });
});
