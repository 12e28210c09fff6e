import { expect, it } from 'vitest';
import { plainText } from '../fakes/notion/fake-markdown.ts';
import { notionAppPerSuite } from '../support/notion-app-suite.ts';
import { proposeSession } from '../support/session-driver.ts';
import { settleWithClock } from '../support/settle-with-clock.ts';

const PROPOSAL = 'Let us pilot an async planning doc, due Friday.';
const suite = notionAppPerSuite({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', SCRIBE_UPDATE_INTERVAL: '30' });

/** Lets the Scribe's interval pass and what it queues (the record's sync to Notion) run. */
async function scribePasses(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await suite.clock.advance(31_000);
    await suite.test.settle();
  }
}

it('!steps lists the record’s next steps; a box a person ticks in Notion reads as done and stays ticked', async () => {
  const room = await proposeSession(suite.test, suite.openRouter, {}, 'Weekly planning without wasting Monday');
  expect((await suite.test.command(room, 'steps')).content).toMatch(/No next steps yet/);
  await suite.test.command(room, 'approve');
  await suite.test.settle();
  await suite.test.say(room, PROPOSAL);
  await suite.test.settle();
  await scribePasses();

  // The simulated Scribe (the fake's model) lists the actions proposed: Alice's first, as Notion to-dos.
  const page = String(suite.notion.store.findPagesByTitle('Detailed record')[0]!.id);
  const boxes = () => suite.notion.store.pageContent(page).filter((block) => block.type === 'to_do');
  const aliceStep = () => boxes().find((block) => plainText(block.payload.rich_text).startsWith(PROPOSAL))!;
  expect(aliceStep().payload.checked).toBe(false);
  const before = (await suite.test.command(room, 'steps')).content;
  expect(before).toMatch(new RegExp(`^\\*\\*Next steps\\*\\* \\(${boxes().length} open, 0 done\\)\\n☐ 1\\. ${PROPOSAL} — Alice \\(#\\d+\\)`));

  // Alice ticks her box in Notion.
  const ticked = suite.notion.store
    .pageContent(page)
    .map((block) =>
      block.type === 'to_do' && plainText(block.payload.rich_text).startsWith(PROPOSAL) ? { ...block, payload: { ...block.payload, checked: true } } : block,
    );
  suite.notion.store.editAsPerson(page, ticked);
  const after = (await settleWithClock(suite.test.command(room, 'steps'), suite.clock)).content;
  expect(after).toMatch(new RegExp(`\\(${boxes().length - 1} open, 1 done\\)\\n☑ 1\\. ${PROPOSAL} — Alice`));

  // The next Scribe pass builds on the record as Alice left it, and her box stays ticked in Notion.
  await suite.test.say(room, 'And we review it at the retro.');
  await suite.test.settle();
  await scribePasses();
  const scribeInputs = suite.openRouter.chats.filter((chat) => chat.agent.role === 'scribe').map((chat) => JSON.stringify(chat.body.messages));
  expect(scribeInputs.at(-1)).toContain(`- [x] ${PROPOSAL}`);
  expect(scribeInputs.at(-1)).toContain('people edited it in Notion, so keep their wording');
  expect(aliceStep().payload.checked).toBe(true);
  expect(plainText(aliceStep().payload.rich_text)).toContain('Alice');
});

it('!done ticks a step from the thread: the record says so, Notion shows the box ticked, and the next pass keeps it', async () => {
  const room = await proposeSession(suite.test, suite.openRouter, {}, 'Release checklist for the mobile app');
  await suite.test.command(room, 'approve');
  await suite.test.settle();
  await suite.test.say(room, 'Let us test the release on a beta group first.');
  await suite.test.settle();
  await scribePasses();
  const sessionId = (await suite.test.app.repositories.sessions.findByRoom('memory', room))!.id;
  const page = String(suite.notion.store.findPagesByTitle('Detailed record').at(-1)!.id);
  const box = () =>
    suite.notion.store.pageContent(page).find((block) => block.type === 'to_do' && plainText(block.payload.rich_text).startsWith('Let us test the release'))!;
  expect(box().payload.checked).toBe(false);

  const reply = await suite.test.command(room, 'done', '1', { id: 'u-bob', name: 'Bob', isAdmin: false });
  expect(reply.content).toMatch(/^☑ 1\. Let us test the release on a beta group first\. — Alice \(#\d+\) — done, by Bob\.$/);
  expect(await suite.test.app.services.documentation.latestRecord(sessionId)).toMatch(/- \[x\] Let us test the release/);
  await scribePasses();
  expect(box().payload.checked).toBe(true);

  // A later pass (the simulated Scribe rebuilds its task list) keeps the box ticked.
  await suite.test.say(room, 'And we write the release notes on Thursday.');
  await suite.test.settle();
  await scribePasses();
  expect(box().payload.checked).toBe(true);
  expect((await suite.test.command(room, 'steps')).content).toMatch(/☑ 1\. Let us test the release/);
});

it('!steps and !refresh take nothing back from a page only we wrote: Notion’s rendering of our markdown is no person’s edit', async () => {
  const room = await proposeSession(suite.test, suite.openRouter, {}, 'Quarterly offsite agenda');
  await suite.test.command(room, 'approve');
  await suite.test.settle();
  await suite.test.say(room, 'Let us book the venue by March.');
  await suite.test.settle();
  await scribePasses();
  const sessionId = (await suite.test.app.repositories.sessions.findByRoom('memory', room))!.id;
  const record = async () => (await suite.test.app.repositories.documents.find(sessionId, 'record'))!;
  const written = await record();
  const page = String(suite.notion.store.findPagesByTitle('Detailed record').at(-1)!.id);
  expect(written.syncedVersion).toBe(written.version);

  // Notion gives our markdown back in its own form (blank lines dropped, a numbered list renumbered 1. 1. 1.).

  await settleWithClock(suite.test.command(room, 'steps'), suite.clock);
  await settleWithClock(suite.test.command(room, 'refresh'), suite.clock);
  expect((await record()).version).toBe(written.version);
  expect((await record()).content).toBe(written.content);
  expect((await record()).metadata.editedInNotion).toBeUndefined();

  // A box a person ticks is their edit: taken back, and the next pass is told to keep their words.
  const ticked = suite.notion.store
    .pageContent(page)
    .map((block) => (block.type === 'to_do' ? { ...block, payload: { ...block.payload, checked: true } } : block));
  suite.notion.store.editAsPerson(page, ticked);
  expect((await settleWithClock(suite.test.command(room, 'steps'), suite.clock)).content).toMatch(/ open, [1-9]\d* done\)/);
  expect((await record()).version).toBe(written.version + 1);
  expect((await record()).metadata.editedInNotion).toBe(true);
});
