/**
 * Issue 16 part 8: a brainstorm started inside a conversation that already happened. A real discord.js client
 * against the fake Discord: people talk in #general (one pastes a key, one mentions another), then someone runs
 * `/brainstorm start` there. The session's thread opens in the brainstorm channel, and the Planner's request (as
 * the fake OpenRouter received it) carries their words by display name, without the key or any user id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscordBot } from '../../src/bot/discord-bot.ts';
import type { FakeDiscord } from '../fakes/discord/index.ts';
import { replies, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { startDiscordApp, type DiscordApp } from '../support/discord-app.ts';
import type { TestApp } from '../support/test-app.ts';

// Built at run time: a key-shaped string, never a literal credential in the source.
const SECRET = ['sk', 'or', 'v1', '0123456789abcdef'.repeat(4)].join('-');

let discord: FakeDiscord;
let models: FakeOpenRouter;
let bot: DiscordBot;
let test: TestApp;

let running: DiscordApp;
beforeAll(async () => {
  running = await startDiscordApp({ SESSION_PLANNER_MAX_QUESTIONS: '0' });
  ({ discord, models, bot, test } = running);
});
afterAll(async () => running?.stop());

const plannerRequests = () => models.chats.filter((chat) => chat.agent.role === 'planner');

describe('starting a brainstorm from a conversation that already happened', () => {
  it('/brainstorm start in #general gives the Planner the talk there, by name, screened, and the Planner says what it gathers', async () => {
    const general = discord.channels['general']!.id;
    const { ada, bob } = discord.people;
    discord.post(general, ada, 'Our deploys keep breaking on Fridays; rollbacks take an hour.');
    discord.post(general, bob, `Here is the staging key so you can try: ${SECRET}`);
    discord.post(general, bob, `<@${ada.id}> maybe feature flags would let us turn things off instead?`);
    models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));

    const start = discord.runSlashCommand({
      channelId: general,
      user: ada,
      command: 'brainstorm',
      subcommand: 'start',
      options: { topic: 'How do we make releases safer?', preset: 'retrospective' },
    });
    await bot.handled(start.id);
    await test.settle();

    const session = (await test.app.repositories.sessions.listByStatus(['awaiting_approval']))[0]!;
    expect(session.topic).toBe('How do we make releases safer?');
    // The thread opened in the brainstorm channel, not in #general.
    expect(discord.state.channels.get(session.roomId)?.parentId).toBe(discord.channels['brainstorm']!.id);

    const sent = JSON.stringify(plannerRequests().at(-1)!.body.messages);
    expect(sent).toContain('[ada]: Our deploys keep breaking on Fridays');
    expect(sent).toContain('maybe feature flags would let us turn things off instead?');
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toContain(ada.id);
    expect(sent).not.toContain(bob.id);
    expect(sent).toContain('left out: the screen refused it');
    // Nothing sent to any model anywhere carries the key.
    expect(JSON.stringify(models.chats.map((chat) => chat.body))).not.toContain(SECRET);

    const planMessage = discord.messagesIn(session.roomId).filter((message) => message.displayName === 'Planner')[0]!;
    expect(planMessage.content).toMatch(/^From the conversation above \(3 messages from ada, bob\) I gather: /);
    // The slash command's preset option chose the preset.
    expect(planMessage.content).toContain('**Preset:** Retrospective (`retrospective`) — chosen by ada');
    expect(session.plan?.preset).toBe('retrospective');
  });

  it('!brainstorm in a session thread starts a new session from what was said there', async () => {
    const [first] = await test.app.repositories.sessions.listByStatus(['awaiting_approval']);
    const { bob } = discord.people;
    models.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
    const post = discord.post(first!.roomId, bob, '!brainstorm Kill switches for the payment flow');
    await bot.handled(post.id);
    await test.settle();
    const request = JSON.stringify(plannerRequests().at(-1)!.body.messages);
    expect(request).toContain('Topic: Kill switches for the payment flow');
    // The earlier session's stored transcript: its topic and the Planner's plan, by speaker.
    expect(request).toContain('[ada]: How do we make releases safer?');
    expect(request).toMatch(/\[Planner\]: From the conversation above/);
  });
});
