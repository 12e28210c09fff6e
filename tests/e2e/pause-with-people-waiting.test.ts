/**
 * `!pause` while people wait for answers: the rounds stop, nothing spins meanwhile, and `!continue` answers them.
 */
import { describe, expect, it } from 'vitest';
import { appOnFakeModels } from '../support/app-on-fake-models.ts';
import { questionUnderWay } from '../support/session-driver.ts';

const suite = appOnFakeModels({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '0' });
const bob = { id: 'u-bob', name: 'Bob', isAdmin: false };

describe('a pause while people wait', () => {
  it('stops the rounds without spinning, and !continue answers who was waiting', async () => {
    const { fake, test } = suite;
    const { room, sessionId, participantCalls } = await questionUnderWay(
      test,
      fake,
      (name) => [`${name} opens.`, `${name} answers Alice.`, `${name} answers Bob.`],
      'What would you cut first?',
    );
    await test.say(room, 'And who owns billing?', bob);
    await test.command(room, 'pause');
    const reads = test.app.repositories.sessions.findById.bind(test.app.repositories.sessions);
    let sessionReads = 0;
    test.app.repositories.sessions.findById = (id: string) => {
      sessionReads += 1;
      return reads(id);
    };
    await test.settle();
    expect(participantCalls()).toBe(6);
    const readsAfterSettle = sessionReads;
    for (let tick = 0; tick < 200; tick += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    // Paused: no loop reads the session again and again while it waits.
    expect(sessionReads - readsAfterSettle).toBe(0);

    await test.command(room, 'continue');
    await test.settle();
    const stored = await test.app.repositories.messages.listForSession(sessionId);
    const bobs = stored.find((message) => message.text === 'And who owns billing?')!;
    expect(stored.filter((message) => message.speaker.kind === 'participant' && message.replyTo.includes(bobs.id))).toHaveLength(3);
  });
});
