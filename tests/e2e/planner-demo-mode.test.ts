import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { fakeEnvironment, startTestApp, type TestApp } from '../support/test-app.ts';

/** Demo mode's simulated models answer what the request forces, like a real model: a comment revises the plan. */
let fake: FakeOpenRouter;
let test: TestApp;
let asking: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  test = await startTestApp(fakeEnvironment(fake.url, { SESSION_PLANNER_MAX_QUESTIONS: '0' }));
  asking = await startTestApp(fakeEnvironment(fake.url));
});
afterAll(async () => {
  await test?.stop();
  await asking?.stop();
  await fake?.close();
});

describe('planning against the demo brain', () => {
  it('a comment on the plan brings a revised plan, which is then approved', async () => {
    await test.say(null, 'How should a small team adopt feature flags?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    expect(test.transport.room(room).at(-1)?.content).toMatch(/Proposed plan/);
    await test.say(room, 'Please focus on kill switches instead.');
    await test.settle();
    expect(test.transport.room(room).at(-1)?.content).toMatch(/Revised plan \(v2\)/);
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    await test.settle();
    expect(test.transport.room(room).some((message) => message.speaker === 'Moderator' && /Welcome, everyone/.test(message.content))).toBe(true);
  });

  it('"looks good, go ahead" approves the plan as !approve does: no revision nobody asked for, and the words are kept', async () => {
    await test.say(null, 'How do we onboard new engineers faster?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    expect(test.transport.room(room).at(-1)?.content).toMatch(/Proposed plan/);
    const answer = await test.say(room, 'Looks good, go ahead 👍');
    expect(answer?.content).toBe('Taken as `!approve`: Plan approved — starting the discussion.');
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
    expect(session?.status).toBe('active');
    expect(test.transport.room(room).some((message) => /Revised plan/.test(message.content))).toBe(false);
    const stored = await test.app.repositories.messages.listForSession(session?.id ?? '');
    expect(stored.some((message) => message.text === 'Looks good, go ahead 👍')).toBe(true);
  });

  it('a comment naming limits sets them over the preset, the rest stay as shown, and the approved session runs under them', async () => {
    await test.say(null, 'Which feature do our users miss most in the mobile app?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    const first = test.transport.room(room).at(-1)?.content ?? '';
    // The product-ideas preset sets 60 messages and 45 minutes.
    expect(first).toMatch(/Preset:\*\* Product ideas/);
    expect(first).toMatch(/\*\*Limits:\*\* 60 messages · [\d,]+ tokens · \$[\d.]+ · 45 min/);
    await test.say(room, 'Please keep it to 20 messages max.');
    await test.settle();
    const revised = test.transport.room(room).at(-1)?.content ?? '';
    expect(revised).toMatch(/Revised plan \(v2\)/);
    expect(revised).toMatch(/\*\*Limits:\*\* 20 messages · [\d,]+ tokens · \$[\d.]+ · 45 min/);
    expect((await test.command(room, 'approve')).content).toMatch(/Plan approved/);
    await test.settle();
    const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
    expect(session?.plan?.parameters).toMatchObject({ maxMessages: 20, timeoutMinutes: 45 });
  });

  it("plans around the person's answers (sent as text parts, as the SDK sends them) and picks the preset the topic suggests", async () => {
    await asking.say(null, 'Which feature do our users miss most in the mobile app?');
    await asking.settle();
    const room = asking.transport.rooms.at(-1)!.roomId;
    expect(asking.transport.room(room).at(-1)?.content).toMatch(/Before I plan this session/);
    await asking.say(room, 'A shortlist of three; offline mode keeps coming up in support tickets.');
    await asking.settle();
    const plan = asking.transport.room(room).at(-1)?.content ?? '';
    expect(plan).toMatch(/Proposed plan/);
    expect(plan).toMatch(/told the Planner: “A shortlist of three; offline mode keeps coming up in support tickets\.”/);
    expect(plan).toMatch(/Preset:\*\* Product ideas \(`product-ideas`\) — picked by the Planner/);
  });
});
