import type { FakeOpenRouter } from '../fakes/openrouter/fake-openrouter.ts';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import type { SessionPlan } from '../../src/core/domain.ts';
import { scriptedPlan } from './scripted-plans.ts';
import type { TestApp } from './test-app.ts';

/** Starts a session whose Planner plans at once; returns its room id (awaiting approval). */
export async function proposeSession(
  test: TestApp,
  fake: FakeOpenRouter,
  parameters: Partial<SessionPlan['parameters']> = {},
  topic = 'Feature flags for a small team',
): Promise<string> {
  fake.script({ role: 'planner' }, replies.toolCall('start_session', scriptedPlan(parameters)));
  await test.say(null, topic);
  await test.settle();
  const room = test.transport.rooms.at(-1)?.roomId;
  if (!room) throw new Error('no room was opened');
  return room;
}

/** Polls (without sleeping on time) until `condition` holds, for code running in the background. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, attempts = 2000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A running session whose round answering a person's first question is still under way (see `questionUnderWay`). */
export interface SessionMidRound {
  room: string;
  sessionId: string;
  /** Participant requests the fake has seen so far. */
  participantCalls: () => number;
}

/**
 * Approves a session whose participants (Claude, ChatGPT, Grok) answer `answers(name)` in turn, the second slowly, then
 * asks `question` and resolves while the round answering it is under way: a message sent now arrives mid-round.
 */
export async function questionUnderWay(
  test: TestApp,
  fake: FakeOpenRouter,
  answers: (name: string) => [opening: string, slow: string, next: string],
  question: string,
): Promise<SessionMidRound> {
  const names = ['Claude', 'ChatGPT', 'Grok'];
  for (const name of names) {
    const [opening, slow, next] = answers(name);
    fake.script({ participant: name }, replies.text(opening), replies.text(slow, { timing: { latencyMs: 150 } }), replies.text(next));
  }
  const room = await proposeSession(test, fake);
  await test.command(room, 'approve');
  await test.settle();
  const session = await test.app.repositories.sessions.findByRoom(test.transport.name, room);
  if (!session) throw new Error('the approved session was not found');
  const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
  await test.say(room, question);
  await waitFor(() => participantCalls() === names.length * 2, 'the round answering the question to be under way');
  return { room, sessionId: session.id, participantCalls };
}
