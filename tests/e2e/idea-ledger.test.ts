import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { proposeSession } from '../support/session-driver.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';
import type { ChatMessage, Session } from '../../src/core/domain.ts';
import { ConsoleQueries } from '../../src/services/console/console-queries.ts';

const PARTICIPANTS = ['Claude', 'ChatGPT', 'Grok'];
const ENVIRONMENT = {
  MAX_AI_ROUNDS_WITHOUT_HUMAN: '1',
  MODERATOR_CHECK_INTERVAL: '1000',
  IDEAS_CONVERGENCE_ROUNDS: '2',
  SCRIBE_UPDATE_INTERVAL: '60',
  TLDR_UPDATE_INTERVAL: '60',
};

interface ScriptedIdea {
  existingIdea?: string;
  title: string;
  proposer: string;
  builders?: string[];
  objectors?: string[];
  messageIds: number[];
}

function extraction(ideas: ScriptedIdea[], disagreements: unknown[] = [], openQuestions: unknown[] = []) {
  return replies.json({
    ideas: ideas.map((idea) => ({ existingIdea: '', summary: `${idea.title}, as proposed.`, builders: [], objectors: [], ...idea })),
    disagreements,
    openQuestions,
  });
}

async function sessionOf(test: TestApp, room: string): Promise<Session> {
  const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
  if (!session) throw new Error('no session');
  return session;
}

async function said(test: TestApp, session: Session, name: string): Promise<ChatMessage[]> {
  return (await test.app.repositories.messages.listForSession(session.id)).filter((message) => message.speaker.name === name);
}

/**
 * A session planned before the one under test: its messages take the first stored ids, so the next session's
 * numbers (#1, #2, … which the extractor reads and cites) differ from their stored ids, as in any real database.
 */
async function anEarlierSession(test: TestApp, fake: FakeOpenRouter): Promise<void> {
  await proposeSession(test, fake, {}, 'An earlier topic');
}

/** One Scribe interval later: the ledger pass (and the Scribe) run. */
async function nextInterval(test: TestApp): Promise<void> {
  await test.clock.advance(61_000);
  await test.settle();
}

describe('the idea ledger through the app (models that repeat themselves and all agree)', () => {
  let fake: FakeOpenRouter;
  let test: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenRouter();
    test = await startTestApp(fakeEnvironment(fake.url, ENVIRONMENT));
    await anEarlierSession(test, fake);
  });
  afterAll(async () => {
    await test?.stop();
    await fake?.close();
  });

  it('lists the ideas, invites dissent into a room that only agrees, and closes a converged room with a proposal', async () => {
    fake.script(
      { participant: 'Claude' },
      // Agreeing again in other words each round, as models do: an answer said word for word again is withheld.
      ...Array.from({ length: 10 }, (_, round) => replies.text(`Ship feature flags as a config file in the repo; I agree with everyone (round ${round + 1}).`)),
    );
    fake.script(
      { participant: 'ChatGPT' },
      ...Array.from({ length: 10 }, (_, round) => replies.text(`Agreed: flags in a config file, reviewed like code. Round ${round + 1}, same view.`)),
    );
    fake.script(
      { participant: 'Grok' },
      ...Array.from({ length: 10 }, (_, round) => replies.text(`Yes, a config file it is. Also a kill switch per flag. Round ${round + 1}, no change.`)),
    );
    const room = await proposeSession(test, fake);
    expect((await test.command(room, 'ideas')).content).toBe('No ideas yet — the discussion starts once the plan is approved.');
    await test.clock.advance(5_000); // a person reads the plan before approving it
    await test.command(room, 'approve');
    await test.settle();
    const session = await sessionOf(test, room);
    const [claude, chatgpt, grok] = await Promise.all(PARTICIPANTS.map((name) => said(test, session, name)));
    expect(claude?.length).toBeGreaterThan(0);
    expect(claude?.[0]?.number).not.toBe(claude?.[0]?.id);
    // Roles against sycophancy reach each participant's instructions: one proposer, one skeptic, one pragmatist.
    const roleLines = fake.chats
      .filter((chat) => chat.agent.role === 'participant')
      .map((chat) => JSON.stringify(chat.body.messages[0]?.content ?? '').match(/Your role for this part of the session: (\w+)/)?.[1]);
    expect(new Set(roleLines.slice(0, 3))).toEqual(new Set(['proposer', 'skeptic', 'pragmatist']));

    fake.script(
      { role: 'ideas' },
      extraction([
        {
          title: 'Feature flags in a config file',
          proposer: 'Claude',
          builders: ['ChatGPT', 'Grok'],
          messageIds: [claude?.[0]?.number ?? 0, chatgpt?.[0]?.number ?? 0],
        },
        { title: 'A kill switch per flag', proposer: 'Grok', builders: ['claude', 'ChatGPT', 'Nobody'], messageIds: [grok?.[0]?.number ?? 0, 99_999] },
      ]),
    );
    await nextInterval(test);
    // The extractor reads the discussion: the topic the person planned from is not an idea they proposed.
    const extractorInput = JSON.stringify(fake.chats.filter((chat) => chat.agent.role === 'ideas').at(-1)?.body.messages ?? []);
    expect(extractorInput).toContain('New messages (oldest first)');
    expect(extractorInput).toContain('[Claude]: Ship feature flags as a config file');
    expect(extractorInput).not.toContain('Feature flags for a small team');
    let transcript = test.transport.room(room);
    expect(transcript.some((message) => message.speaker === 'Moderator' && message.content.startsWith('Everyone has agreed so far'))).toBe(true);
    const listed = await test.command(room, 'ideas');
    expect(listed.content).toContain('**I1** Feature flags in a config file — Claude; built on: ChatGPT, Grok');
    expect(listed.content).toContain('**I2** A kill switch per flag — Grok; built on: Claude, ChatGPT');
    expect(listed.content).toContain('agreement 100%');

    // The same ideas come back, once by reference and once restated: duplicates, no new idea, no objection.
    for (let pass = 0; pass < 2 && (await sessionOf(test, room)).status === 'active'; pass += 1) {
      await test.command(room, 'continue');
      await test.settle();
      const latest = (await said(test, session, 'Claude')).at(-1)?.number ?? 0;
      fake.script(
        { role: 'ideas' },
        extraction([
          { existingIdea: 'I1', title: 'Config-file flags', proposer: 'Claude', messageIds: [latest] },
          { title: 'A kill switch per flag', proposer: 'Grok', messageIds: [latest] },
        ]),
      );
      await nextInterval(test);
    }
    await test.settle();

    const closed = await sessionOf(test, room);
    expect(closed.status).toBe('completed');
    expect(closed.endReason).toBe('converged: no new idea or objection in the last 2 rounds');
    transcript = test.transport.room(room);
    const proposal = transcript.find((message) => message.speaker === 'Moderator' && message.content.startsWith('**The room has converged**'));
    expect(proposal?.content).toContain('!explore');
    expect(proposal?.content).toMatch(/\*\*stop\*\*[\s\S]*\*\*explore\*\*[\s\S]*\*\*go on\*\*/);
    expect(transcript.at(-1)?.content).toContain('(converged: no new idea or objection in the last 2 rounds)');

    const panel = await test.app.services.ideas.panel(closed);
    expect(panel.ideas).toHaveLength(2);
    expect(panel.figures.roundsWithoutNewIdeaAtClose).toBe(2);
    expect(panel.figures.agreementRatio).toBe(1);
    expect(panel.figures.duplicateIdeaRatio).toBeCloseTo(4 / 6);
    const consolePanel = await new ConsoleQueries(test.app.repositories, test.clock).getIdeas(closed.id);
    expect(consolePanel?.figures).toMatchObject({ ideas: 2, agreementRatio: 1, roundsWithoutNewIdeaAtClose: 2 });
    expect(consolePanel?.ideas[0]).not.toHaveProperty('embedding');
    const record = await test.app.repositories.documents.find(closed.id, 'record');
    expect(record?.content).toContain('## Idea ledger');
    expect(record?.content).toContain('**I1 Feature flags in a config file**');
    expect(record?.content).toContain('The room agreed throughout');
    expect(record?.content.match(/## Idea ledger/g)).toHaveLength(1);
  });
});

describe('disagreements through the app (a literal model everywhere else)', () => {
  let fake: FakeOpenRouter;
  let test: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenRouter({ fallback: 'literal' });
    test = await startTestApp(fakeEnvironment(fake.url, ENVIRONMENT));
    await anEarlierSession(test, fake);
  });
  afterAll(async () => {
    await test?.stop();
    await fake?.close();
  });

  it('records who disagreed with whom, with both sides and message links, in the record and the TLDR', async () => {
    fake.script({ participant: 'Claude' }, replies.text('Keep flags in a config file.'));
    fake.script({ participant: 'ChatGPT' }, replies.text('No: a flag service, so product can flip flags without a deploy.'));
    fake.script({ participant: 'Grok' }, replies.text('Who owns cleaning up old flags?'));
    const room = await proposeSession(test, fake);
    await test.command(room, 'approve');
    await test.settle();
    const session = await sessionOf(test, room);
    // A pass answered by the literal model (by schema only) stores nothing it cannot trace, and breaks nothing.
    await nextInterval(test);
    await test.command(room, 'continue');
    await test.settle();
    const [claude, chatgpt, grok] = await Promise.all(PARTICIPANTS.map((name) => said(test, session, name)));
    // The extractor cites messages by the numbers it reads them under (#12), not by their stored ids.
    const [c, g, k] = [claude?.[0]?.number ?? 0, chatgpt?.[0]?.number ?? 0, grok?.[0]?.number ?? 0];
    expect(c).not.toBe(claude?.[0]?.id);
    fake.script(
      { role: 'ideas' },
      extraction(
        [
          { title: 'Flags in a config file', proposer: 'Claude', objectors: ['ChatGPT'], messageIds: [c, g] },
          { title: 'A hosted flag service', proposer: 'ChatGPT', objectors: ['Claude'], messageIds: [g] },
        ],
        [
          {
            topic: 'Where flags live',
            sides: [
              { speakers: ['Claude'], position: 'a config file, reviewed like code' },
              { speakers: ['ChatGPT'], position: 'a service, flipped without a deploy' },
            ],
            messageIds: [c, g],
          },
        ],
        [{ question: 'Who owns cleaning up old flags?', messageIds: [k] }],
      ),
    );
    await test.command(room, 'stop');
    await test.settle();
    await nextInterval(test);

    const record = (await test.app.repositories.documents.find(session.id, 'record'))?.content ?? '';
    expect(record).toContain('## Where the room disagreed');
    expect(record).toContain(
      `- **Where flags live**: Claude: a config file, reviewed like code **versus** ChatGPT: a service, flipped without a deploy (#${Math.min(c, g)}, #${Math.max(c, g)}).`,
    );
    // Both ideas' objections are the disagreement above, told once, not again as "for it versus against it".
    expect(record).not.toContain('against it');
    expect(record).toContain(`- Who owns cleaning up old flags? (#${k})`);
    expect(record).not.toContain('The room agreed throughout');
    const tldr = (await test.app.repositories.documents.find(session.id, 'tldr'))?.content ?? '';
    expect(tldr).toContain('## Where the room disagreed');
    expect(tldr).toContain('## Open questions');
    expect(tldr).not.toContain('## Idea ledger');
    const panel = await test.app.services.ideas.panel((await sessionOf(test, room)) as Session);
    expect(panel.figures.agreementRatio).toBe(0);
  });
});
