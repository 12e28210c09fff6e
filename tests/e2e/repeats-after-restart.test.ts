/**
 * A participant stuck on one answer sits out the AI rounds until a person speaks, and the room is told once. Both
 * hold across a restart: the process that takes the session over reads them back from the session, instead of asking
 * the stuck participant again (two calls for nothing) and telling the room a second time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { randomIds } from '../../src/core/ids.ts';
import { replies, startFakeOpenRouter, type FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { createThrowawayPostgres } from '../support/databases.ts';
import { MemoryTransport } from '../support/memory-transport.ts';
import { FRESH, LOOP } from '../support/repeating-answers.ts';
import { scriptedPlan } from '../support/scripted-plans.ts';
import { fakeEnvironment, startTestApp } from '../support/test-app.ts';

let fake: FakeOpenRouter;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  fake = await startFakeOpenRouter();
  database = await createThrowawayPostgres();
});
afterAll(async () => {
  await fake?.close();
  await database?.drop();
});

const calls = (name: string) => fake.chats.filter((chat) => chat.agent.role === 'participant' && chat.agent.name === name).length;

describe('a participant resting after a repeat, across a restart', () => {
  it('still rests, and the room is not told again', async () => {
    const environment = fakeEnvironment(fake.url, { DATABASE_URL: database.url, SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '4' });
    const clock = new ManualClock('2026-07-01T09:00:00Z');
    const transport = new MemoryTransport();
    const location = { kind: 'postgres' as const, url: database.url };
    const first = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan()));
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 8 }, () => replies.text(`Grok: ${LOOP}`)));
    // The opening and the first AI round; the second AI round (without Grok, who rests) is still being written when
    // the process stops.
    for (const [index, name] of ['Claude', 'ChatGPT'].entries())
      fake.script({ participant: name }, replies.text(`${name} adds: ${FRESH[index]}`), replies.text(`${name} adds: ${FRESH[index + 2]}`), replies.hang());
    await first.say(null, 'How do we roll out feature flags safely?');
    await first.settle();
    const room = transport.rooms.at(-1)!.roomId;
    await first.command(room, 'approve');
    await vi.waitFor(() => expect(calls('Claude')).toBe(3), { timeout: 20_000, interval: 10 });
    const notices = () => transport.room(room).filter((message) => message.speaker === 'Brainstorm' && message.content.includes('repeated'));
    expect(notices()).toHaveLength(1);
    expect(calls('Grok')).toBe(3);
    await first.stop();

    fake.reset();
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 8 }, () => replies.text(`Grok: ${LOOP}`)));
    for (const name of ['Claude', 'ChatGPT']) fake.script({ participant: name }, ...FRESH.map((point) => replies.text(`${name} again: ${point}`)));
    const second = await startTestApp(environment, { clock, transport, database: location, ids: randomIds });
    await second.settle();
    // The rounds went on after the restart without Grok, and nobody was told twice.
    expect(calls('Claude')).toBeGreaterThan(0);
    expect(calls('Grok')).toBe(0);
    expect(notices()).toHaveLength(1);
    // A person's round asks Grok again, as before the restart.
    await second.say(room, 'Which of these would you try first?');
    await second.settle();
    expect(calls('Grok')).toBe(2);
    await second.stop();
  });
});
