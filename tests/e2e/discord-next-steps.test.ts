/**
 * Next steps ticked by a button in Discord, end to end: a real discord.js client against the fake Discord, the whole
 * app behind it. A person proposes an action, the Scribe lists it, `!steps` shows it with a "Done" button, and a
 * press ticks it in the record, tells the room who did, and shows the list again with the box ticked.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeUser, RecordedMessage } from '../fakes/discord/index.ts';
import { nextStepsIn } from '../../src/core/next-steps.ts';
import { postAndSettle, startDiscordApp, type DiscordApp } from '../support/discord-app.ts';

const PROPOSAL = 'Let us pilot an async planning doc, due Friday.';
let running: DiscordApp;

beforeAll(async () => {
  running = await startDiscordApp({
    SESSION_PLANNER_MAX_QUESTIONS: '0',
    MAX_AI_ROUNDS_WITHOUT_HUMAN: '1',
    SCRIBE_UPDATE_INTERVAL: '30',
    NEXT_STEPS_REMINDER_DAYS: '2',
  });
});
afterAll(async () => running?.stop());

const say = (channelId: string, person: FakeUser, content: string) => postAndSettle(running, channelId, person, content);
const buttonsOf = (message: RecordedMessage | undefined) =>
  (message?.components ?? []).flatMap((row) => (row as { components: { custom_id: string; label: string }[] }).components);

it('a Done button under !steps ticks the step for whoever presses it, and the list shows it ticked', async () => {
  const { discord, bot, test } = running;
  const topic = await say(discord.channels['brainstorm']!.id, discord.people.ada, 'Weekly planning without wasting Monday');
  const roomId = topic.threadId!;
  await say(roomId, discord.people.ada, '!approve');
  await say(roomId, discord.people.ada, PROPOSAL);

  // At once, with no Scribe pass due yet: `!steps` brings the record up to the last message first.
  expect(await test.app.repositories.documents.find((await test.app.repositories.sessions.findByRoom('discord', roomId))!.id, 'record')).toBeNull();
  await say(roomId, discord.people.bob, '!steps');
  const list = discord.messagesIn(roomId).at(-1)!;
  expect(list.origin).toBe('bot');
  expect(list.content).toMatch(new RegExp(`☐ 1\\. ${PROPOSAL} — ada`));
  const [first] = buttonsOf(list);
  expect(first?.label).toBe('Done 1');

  // Bob and Ada press it at the same moment: one ticks it for the room to see, the other alone hears it is done already.
  const click = discord.clickButton(list, first!.custom_id, discord.people.bob);
  const again = discord.clickButton(list, first!.custom_id, discord.people.ada);
  await Promise.all([bot.handled(click.id), bot.handled(again.id)]);
  await test.settle();
  const followUps = [click, again]
    .flatMap((press) => press.responses.filter((response) => response.kind === 'followup'))
    .map((response) => ({ content: response.content, ephemeral: response.ephemeral }))
    .sort((left, right) => Number(left.ephemeral) - Number(right.ephemeral));
  expect(followUps).toEqual([
    { content: expect.stringMatching(new RegExp(`^☑ 1\\. ${PROPOSAL} — ada \\(#\\d+\\) — done, by (bob|ada)\\.$`)), ephemeral: false },
    { content: expect.stringMatching(/^Already done: ☑ 1\./), ephemeral: true },
  ]);
  expect(discord.messagesIn(roomId).at(-1)?.content).toMatch(/ — done, by (bob|ada)\.$/);
  const shown = discord.state.findMessage(list.id)!;
  expect(shown.content).toMatch(new RegExp(`☑ 1\\. ${PROPOSAL}`));
  expect(buttonsOf(shown).map((button) => button.label)).not.toContain('Done 1');
  expect(() => discord.clickButton(shown, first!.custom_id, discord.people.bob)).toThrow(/has no button/);
  const session = await test.app.repositories.sessions.findByRoom('discord', roomId);
  expect(await test.app.services.documentation.latestRecord(session!.id)).toContain(`- [x] ${PROPOSAL}`);
});

it('the closing and the reminder carry a Done button per open step; a press ticks it and takes that button off', async () => {
  const { discord, bot, test } = running;
  const topic = await say(discord.channels['brainstorm']!.id, discord.people.ada, 'Quarterly offsite without the slide marathon');
  const roomId = topic.threadId!;
  await say(roomId, discord.people.ada, '!approve');
  await say(roomId, discord.people.ada, 'Let us cap every talk at ten minutes, due next week.');
  await say(roomId, discord.people.bob, 'Bob owns it: book a room with whiteboards by Monday.');
  await say(roomId, discord.people.ada, '!stop');

  const closing = discord.messagesIn(roomId).find((message) => message.content.includes('this session is closed'))!;
  expect(closing.origin).toBe('webhook');
  const open = (closing.content.match(/☐ \d+\./g) ?? []).length;
  expect(open).toBeGreaterThanOrEqual(2);
  expect(buttonsOf(closing).map((button) => button.label)).toEqual(Array.from({ length: open }, (_, index) => `Done ${index + 1}`));

  // The fake's record of a message changes with it: what the room saw before the press is kept here.
  const shownBefore = closing.content;
  const press = discord.clickButton(closing, buttonsOf(closing)[0]!.custom_id, discord.people.bob);
  await bot.handled(press.id);
  await test.settle();
  expect(press.responses.filter((response) => response.kind === 'followup').map((response) => response.content)).toEqual([
    expect.stringMatching(/^☑ 1\. .+ — done, by bob\.$/),
  ]);
  const closed = discord.state.findMessage(closing.id)!;
  expect(closed.content).toBe(shownBefore.replace(/^☐ 1\. /m, '☑ 1. '));
  expect(closed.content).not.toBe(shownBefore);
  expect(buttonsOf(closed).map((button) => button.label)).toEqual(Array.from({ length: open - 1 }, (_, index) => `Done ${index + 2}`));

  await test.clock.advance(2 * 24 * 60 * 60_000 + 60_000);
  await test.settle();
  const reminder = discord.messagesIn(roomId).find((message) => message.content.includes('still open'))!;
  expect(reminder.content).toContain(`**${open - 1} of ${open} next steps`);
  const [second] = buttonsOf(reminder);
  expect(buttonsOf(reminder)).toHaveLength(open - 1);
  expect(second?.label).toBe('Done 2');
  const later = discord.clickButton(reminder, second!.custom_id, discord.people.ada);
  await bot.handled(later.id);
  await test.settle();
  expect(later.responses.find((response) => response.kind === 'followup')?.content).toMatch(/^☑ 2\. .+ — done, by ada\.$/);
  expect(buttonsOf(discord.state.findMessage(reminder.id)!).map((button) => button.label)).not.toContain('Done 2');
  expect(discord.state.findMessage(reminder.id)!.content).toMatch(/^☑ 2\. /m);
  const session = await test.app.repositories.sessions.findByRoom('discord', roomId);
  expect(
    nextStepsIn((await test.app.services.documentation.latestRecord(session!.id)) ?? '')
      .slice(0, 2)
      .map((step) => step.done),
  ).toEqual([true, true]);
});
