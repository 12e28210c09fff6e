import { getGlobalTraceProvider } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type ChatRequestRecord, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';
import type { Session } from '../../src/core/domain.ts';
import { ConsoleQueries } from '../../src/services/console/console-queries.ts';
import { notionAppPerSuite } from '../support/notion-app-suite.ts';
import { messageText } from '../../src/simulator/chat-types.ts';

const NAMES = /Claude|ChatGPT|Grok|Alice/;
const ENVIRONMENT = { MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', MODERATOR_CHECK_INTERVAL: '1000', SCRIBE_UPDATE_INTERVAL: '60', TLDR_UPDATE_INTERVAL: '60' };

async function sessionOf(test: TestApp, room: string): Promise<Session> {
  const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
  if (!session) throw new Error('no session');
  return session;
}

function isCritique(chat: ChatRequestRecord): boolean {
  return (
    chat.agent.role === 'participant' && chat.body.messages.some((message) => message.role === 'system' && messageText(message).includes('critique round'))
  );
}

const userText = (chat: ChatRequestRecord) =>
  chat.body.messages
    .filter((message) => message.role === 'user')
    .map(messageText)
    .join('\n');

/** A session planned with (or without) a critique round, one round of answers, and three ideas in the ledger. */
async function sessionWithIdeas(test: TestApp, fake: FakeOpenRouter, critiqueRound: boolean, comment?: string): Promise<{ room: string; session: Session }> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', { ...scriptedPlan(), critiqueRound }));
  await test.say(null, 'Feature flags: which way should a small team go?');
  await test.settle();
  const room = test.transport.rooms.at(-1)?.roomId ?? '';
  if (comment) {
    // The revised plan keeps the critique round as it was: the person's comment decides anyway.
    fake.script({ role: 'planner' }, replies.toolCall('start_session', { ...scriptedPlan(), critiqueRound }));
    await test.say(room, comment);
    await test.settle();
  }
  fake.script({ participant: 'Claude' }, replies.text('Keep flags in a config file, reviewed like code.'));
  fake.script({ participant: 'ChatGPT' }, replies.text('A hosted flag service, so product can flip flags.'));
  fake.script({ participant: 'Grok' }, replies.text('Whatever we pick, a kill switch per flag.'));
  await test.command(room, 'approve');
  await test.settle();
  const session = await sessionOf(test, room);
  const messages = await test.app.repositories.messages.listForSession(session.id);
  // The extractor cites messages by the numbers it reads them under (#12), not by their stored ids.
  const numberOf = (name: string) => messages.find((message) => message.speaker.name === name)?.number ?? 0;
  const idea = (title: string, summary: string, proposer: string, builders: string[]) => ({
    existingIdea: '',
    title,
    summary,
    proposer,
    builders,
    objectors: [],
    messageIds: [numberOf(proposer)],
  });
  fake.script(
    { role: 'ideas' },
    replies.json({
      ideas: [
        idea('Flags in a config file', "Claude's plan: keep flags in a config file, as Alice asked.", 'Claude', ['Grok']),
        idea('A hosted flag service', 'A service so product can flip flags; ChatGPT says [Grok] agreed.', 'ChatGPT', ['Claude', 'Grok']),
        idea('A kill switch per flag', 'Every flag gets a kill switch (Grok).', 'Grok', []),
      ],
      disagreements: [],
      openQuestions: [],
    }),
  );
  await test.clock.advance(61_000);
  await test.settle();
  return { room, session };
}

/** The plan's time runs out: the session closes as completed, and the wrap-up runs. */
async function timeRunsOut(test: TestApp): Promise<void> {
  await test.clock.advance(31 * 60_000);
  await test.settle();
}

describe('the critique round through the app', () => {
  let fake: FakeOpenRouter;
  let test: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenRouter();
    test = await startTestApp(fakeEnvironment(fake.url, ENVIRONMENT));
  });
  afterAll(async () => {
    await test?.stop();
    await fake?.close();
  });

  it('runs before the wrap-up when the plan has it: names hidden, a lenient read, a failed reviewer noted, the ranking everywhere', async () => {
    const { room, session } = await sessionWithIdeas(test, fake, true);
    expect(test.transport.room(room).some((message) => message.content.includes('**Critique round:** yes'))).toBe(true);
    expect((await test.app.repositories.ideas.ledger(session.id)).ideas).toHaveLength(3);

    // Fenced JSON; JSON in prose with other field shapes and "Proposal X" labels; and a refusal to rank.
    fake.script(
      { participant: 'Claude' },
      replies.json(
        {
          ranking: ['B', 'A', 'C'],
          weakestAssumptions: [{ proposal: 'B', assumption: 'That a vendor stays cheap as flags grow.' }],
          reason: 'B lets product move without deploys.',
        },
        { fenced: true },
      ),
    );
    fake.script(
      { participant: 'ChatGPT' },
      replies.jsonThenProse({
        ranking: 'Proposal B > Proposal C > Proposal A',
        weakestAssumptions: { A: 'That people review config changes carefully.' },
        reason: 'B scales.',
      }),
    );
    fake.script(
      { participant: 'Grok' },
      { ...replies.text("I'd rather not rank my colleagues."), usage: { promptTokens: 4000, completionTokens: 100, costUsd: 0.25 } },
    );
    const before = await sessionOf(test, room);
    await timeRunsOut(test);

    const closed = await sessionOf(test, room);
    expect(closed.status).toBe('completed');
    // Every critique's model call counts toward the session, the one that ranked nothing too.
    expect(closed.totalCostUsd - before.totalCostUsd).toBeGreaterThanOrEqual(0.25);
    expect(closed.totalTokens - before.totalTokens).toBeGreaterThanOrEqual(4100);
    const critiques = fake.chats.filter(isCritique);
    expect(critiques.map((chat) => chat.agent.name).sort()).toEqual(['ChatGPT', 'Claude', 'Grok']);
    for (const chat of critiques) {
      const list = userText(chat);
      expect(list).toContain('Proposal A: Flags in a config file');
      expect(list).toContain("a participant's plan: keep flags in a config file, as a participant asked.");
      expect(list).toContain('Proposal C: A kill switch per flag');
      expect(list).not.toMatch(NAMES);
    }

    const transcript = test.transport.room(room);
    const ranking = transcript.find((message) => message.speaker === 'Moderator' && message.content.startsWith('**Critique round** — aggregate ranking'));
    expect(ranking?.content).toContain('Borda count over 2 anonymous critiques');
    expect(ranking?.content).toContain('- **1st: Proposal B** — I2 A hosted flag service (proposed by ChatGPT): 4 points, 2 first places');
    expect(ranking?.content).toContain('- **2nd: Proposal A** — I1 Flags in a config file (proposed by Claude): 1 point, 0 first places');
    expect(ranking?.content).toContain('- **2nd: Proposal C**');
    expect(ranking?.content).toContain('weakest assumption (Claude): That a vendor stays cheap as flags grow.');
    expect(ranking?.content).toContain('Not counted: Grok (no readable answer).');
    expect(
      transcript.find((message) => message.speaker === 'Claude' && message.content.startsWith('**My ranking:** Proposal B > Proposal A > Proposal C.')),
    ).toBeTruthy();
    // The ranking comes before the closing, which stays the last word.
    const closingIndex = transcript.findIndex((message) => message.speaker === 'Moderator' && /closed|wrap/i.test(message.content) && message !== ranking);
    expect(transcript.indexOf(ranking!)).toBeLessThan(transcript.length - 1);
    expect(closingIndex).toBeGreaterThan(transcript.indexOf(ranking!));

    // The ballots and the ranking open the trace their critiques ran in, as every agent's message opens its own.
    const stored = await test.app.repositories.messages.listForSession(closed.id);
    expect(
      stored.filter((message) => !['human', 'system'].includes(message.speaker.kind) && !message.traceId).map((message) => message.text.slice(0, 40)),
    ).toEqual([]);
    const ballotMessage = stored.find((message) => message.speaker.name === 'Claude' && message.text.startsWith('**My ranking:**'));
    await getGlobalTraceProvider().forceFlush();
    expect((await test.app.repositories.traces.getTrace(ballotMessage?.traceId ?? ''))?.trace.name).toBe('Critique round');

    const tldrInput = fake.chats.filter((chat) => chat.agent.role === 'tldr').at(-1);
    expect(JSON.stringify(tldrInput?.body.messages)).toContain('Critique round before this wrap-up');
    expect(JSON.stringify(tldrInput?.body.messages)).toContain('- **1st: Proposal B** — I2 A hosted flag service');

    const panel = await new ConsoleQueries(test.app.repositories, test.clock).getCritique(closed.id);
    expect(panel?.standings.map((standing) => [standing.place, standing.label, standing.points])).toEqual([
      [1, 'B', 4],
      [2, 'A', 1],
      [2, 'C', 1],
    ]);
    expect(panel?.failures).toEqual([{ participant: 'Grok', reason: 'no readable answer' }]);
    const record = (await test.app.repositories.documents.find(closed.id, 'record'))?.content ?? '';
    expect(record).toContain('## Critique round');
    expect(record.match(/## Critique round/g)).toHaveLength(1);
    expect(record).toContain('- **1st: Proposal B** — I2 A hosted flag service');
  });

  it('does not run when a comment on the plan dropped it', async () => {
    const before = fake.chats.filter(isCritique).length;
    const { room, session } = await sessionWithIdeas(test, fake, true, 'Looks good, but no critique round please.');
    const plans = test.transport.room(room).filter((message) => message.content.includes('**Critique round:**'));
    expect(plans.at(-1)?.content).toContain('**Critique round:** no');
    expect((await sessionOf(test, room)).plan?.critiqueRound).toBe(false);
    await timeRunsOut(test);

    expect((await sessionOf(test, room)).status).toBe('completed');
    expect(fake.chats.filter(isCritique).length).toBe(before);
    expect(test.transport.room(room).some((message) => message.content.includes('**Critique round**'))).toBe(false);
    expect(await new ConsoleQueries(test.app.repositories, test.clock).getCritique(session.id)).toBeNull();
    expect((await test.app.repositories.documents.find(session.id, 'record'))?.content ?? '').not.toContain('## Critique round');
  });

  it('the built-in simulator answers a critique as the prompt asks, so a demo session gets a ranking', async () => {
    const { room } = await sessionWithIdeas(test, fake, true);
    await timeRunsOut(test);
    const ranking = test.transport
      .room(room)
      .find((message) => message.speaker === 'Moderator' && message.content.startsWith('**Critique round** — aggregate'));
    expect(ranking?.content).toContain('Borda count over 3 anonymous critiques');
    expect(ranking?.content).not.toContain('Not counted');
  });

  it('a stopped session skips the round and posts nothing but the closing', async () => {
    const { room, session } = await sessionWithIdeas(test, fake, true);
    const before = fake.chats.filter(isCritique).length;
    await test.command(room, 'stop');
    await test.settle();
    expect(fake.chats.filter(isCritique).length).toBe(before);
    expect(test.transport.room(room).some((message) => message.content.includes('**Critique round**'))).toBe(false);
    expect((await test.app.services.critique.find(session.id))?.skippedReason).toBe('the session was stopped');
  });
});

describe('the critique round in Notion', () => {
  const suite = notionAppPerSuite(ENVIRONMENT);

  it('the detailed record page carries the aggregate ranking', async () => {
    const { test, notion, clock } = suite;
    await sessionWithIdeas(test, suite.openRouter, true);
    await timeRunsOut(test);
    for (let round = 0; round < 3; round += 1) {
      await clock.advance(60_000);
      await test.settle();
    }
    const page = notion.store.findPagesByTitle('Detailed record')[0];
    const content = JSON.stringify(notion.store.pageContent(String(page?.id)));
    expect(content).toContain('Critique round');
    expect(content).toContain('Each participant ranked the leading proposals with their authors hidden');
    expect(content).toMatch(/\*\*1st: Proposal [ABC]\*\*/);
    expect(notion.violations).toBe(0);
  });
});
