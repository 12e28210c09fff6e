/**
 * Issue 16 part 6: presets per task type. The Planner picks one from the topic and the plan names it; `!preset`
 * and `preset:<name>` choose one; a preset from PRESETS_FILE sets who takes part, the roles, the phases and the
 * limits of the approved plan, and the record names it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let test: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
});
afterAll(async () => fake?.close());
beforeEach(() => fake.reset());
afterEach(async () => test?.stop());

const PAIR_REVIEW = {
  name: 'pair-review',
  title: 'Pair review',
  description: 'Two reviewers challenge one proposal.',
  participants: ['claude', 'Grok'],
  roles: ['skeptic', 'pragmatist'],
  flow: 'Read the proposal, attack it, then fix it.',
  phases: ['Read the proposal', 'Attack it', 'Fix it'],
  limits: { maxMessages: 12, timeoutMinutes: 15 },
};

async function start(topic: string, extra: Record<string, string> = {}): Promise<string> {
  const environment = fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', ...extra });
  test = await startTestApp(environment);
  await test.say(null, topic);
  await test.settle();
  return test.transport.rooms.at(-1)!.roomId;
}

const sessionOf = (room: string) => test.app.repositories.sessions.findByRoom('memory', room);
const plannerMessages = (room: string) => test.transport.room(room).filter((message) => message.speaker === 'Planner');

describe('session presets', () => {
  it('the Planner picks a preset from the topic: the plan names it and takes its phases and limits', async () => {
    fake.script({ role: 'planner' }, replies.toolCall('start_session', { ...scriptedPlan({ maxMessages: 80 }), preset: 'architecture-decision' }));
    const room = await start('Should we move from REST to gRPC between our services?');
    // The Planner was offered every preset by name and description.
    const offered = JSON.stringify(fake.chats.find((chat) => chat.agent.role === 'planner')!.body.messages);
    for (const name of ['product-ideas', 'architecture-decision', 'research-question', 'retrospective']) expect(offered).toContain(`- ${name}: `);

    const plan = plannerMessages(room).at(-1)!.content;
    expect(plan).toContain('**Preset:** Architecture decision (`architecture-decision`) — picked by the Planner for this topic.');
    expect(plan).toContain('Decision and consequences (ADR)');
    const session = (await sessionOf(room))!;
    expect(session.plan?.preset).toBe('architecture-decision');
    expect(session.plan?.parameters.maxMessages).toBe(40);
    expect(session.plan?.expectedFlow).toEqual([
      'Context, constraints and decision criteria',
      'Options',
      'Trade-offs against the criteria',
      'Decision and consequences (ADR)',
    ]);
    // Approved as shown: the approved call still carries the Planner's 80.
    await test.command(room, 'approve');
    await test.settle();
    expect((await sessionOf(room))?.plan?.parameters.maxMessages).toBe(40);
  });

  it('a revision under the preset keeps the limits the Planner revised from the plan as shown, and the approval runs under what was shown', async () => {
    fake.script({ role: 'planner' }, replies.toolCall('start_session', { ...scriptedPlan({ maxMessages: 80 }), preset: 'architecture-decision' }));
    const room = await start('Should we move from REST to gRPC between our services?');
    expect(plannerMessages(room).at(-1)!.content).toContain('**Limits:** 40 messages');
    fake.script(
      { role: 'planner' },
      replies.toolCall('start_session', { ...scriptedPlan({ maxMessages: 16, timeoutMinutes: 40 }), preset: 'architecture-decision' }),
    );
    await test.say(room, 'Make it shorter, please.');
    await test.settle();
    // The Planner was told the limits as shown (the preset's 40), not only its own call's 80.
    const revision = JSON.stringify(fake.chats.filter((chat) => chat.agent.role === 'planner').at(-1)!.body.messages);
    expect(revision).toMatch(/The plan as shown had these limits: \{[^}]*\\"maxMessages\\":40[,}]/);
    expect(plannerMessages(room).at(-1)!.content).toMatch(/Revised plan \(v2\)[\s\S]*\*\*Limits:\*\* 16 messages/);
    await test.command(room, 'approve');
    await test.settle();
    expect((await sessionOf(room))?.plan?.parameters).toMatchObject({ maxMessages: 16, timeoutMinutes: 40 });
  });

  it('`preset:<name>` in the topic chooses a built-in preset, and the Planner is told to follow it', async () => {
    fake.script({ role: 'planner' }, replies.toolCall('start_session', { ...scriptedPlan(), preset: 'product-ideas' }));
    const room = await start('Our last sprint slipped by a week preset:retrospective');
    const session = (await sessionOf(room))!;
    expect(session.topic).toBe('Our last sprint slipped by a week');
    expect(JSON.stringify(fake.chats.find((chat) => chat.agent.role === 'planner')!.body.messages)).toContain('chose the preset \\"retrospective\\"');
    // The person's choice wins over the Planner's pick.
    expect(session.plan?.preset).toBe('retrospective');
    expect(session.plan?.parameters.maxMessages).toBe(30);
    expect(plannerMessages(room).at(-1)!.content).toContain('**Preset:** Retrospective (`retrospective`) — chosen by Alice.');
  });

  it('an admin preset from PRESETS_FILE, chosen with !preset, sets the roster, roles, phases and limits of the approved plan', async () => {
    const file = join(fakeEnvironment(fake.url).DATA_DIR!, 'presets.json');
    writeFileSync(file, JSON.stringify([PAIR_REVIEW]));
    fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()), replies.toolCall('start_session', scriptedPlan()));
    const room = await start('Review our caching proposal', { PRESETS_FILE: file });
    expect((await test.command(room, 'preset')).content).toContain('`pair-review` — **Pair review**');
    expect((await test.command(room, 'preset', 'nope')).content).toMatch(/No preset called "nope"/);

    const chosen = await test.command(room, 'preset', 'pair-review');
    expect(chosen.content).toMatch(/revising the plan/);
    await test.settle();
    const revised = plannerMessages(room).at(-1)!.content;
    expect(revised).toMatch(/Revised plan/);
    expect(revised).toContain('**Preset:** Pair review (`pair-review`) — chosen by Alice.');
    expect(revised).toContain('**Participants:** Claude, Grok · **Roles:** skeptic, pragmatist');

    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    const session = (await sessionOf(room))!;
    expect(session.plan?.preset).toBe('pair-review');
    expect(session.plan?.expectedFlow).toEqual(PAIR_REVIEW.phases);
    expect(session.plan?.parameters).toMatchObject({ maxMessages: 12, timeoutMinutes: 15 });
    expect(session.disabledParticipants).toEqual(['chatgpt']);

    await test.say(room, 'Start with the cache invalidation part.');
    await test.settle();
    const speakers = new Set(
      test.transport
        .room(room)
        .filter((message) => message.speakerKind === 'participant')
        .map((message) => message.speaker),
    );
    expect(speakers).toEqual(new Set(['Claude', 'Grok']));
    // The roles rotate among the preset's roles only.
    const claude = JSON.stringify(fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === 'Claude').at(-1)!.body.messages);
    expect(claude).toMatch(/Your role for this part of the session: (skeptic|pragmatist)/);
    expect(claude).not.toMatch(/Your role for this part of the session: proposer/);
    expect((await test.command(room, 'preset', 'retrospective')).content).toMatch(/while the session is planned/);

    // The record (the Notion page's content, or its markdown mirror) names the preset.
    await test.clock.advance(61_000);
    await test.settle();
    const record = await test.app.repositories.documents.find(session.id, 'record');
    expect(record?.content).toContain('_Session preset: **Pair review** (`pair-review`, chosen by Alice)._');
  });
});
