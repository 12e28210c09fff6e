/**
 * `!pause` while the Moderator checks the discussion between rounds: a check that asks its model takes seconds, and
 * one that changes nothing leaves the loop with the session as it was before the pause.
 */
import { describe, expect, it, vi } from 'vitest';
import { scriptedVerdict, scriptOffTopicAnswers } from '../support/scripted-moderation.ts';
import { appOnClockedFakeModels } from '../support/app-on-fake-models.ts';

const verdict = (overrides: Record<string, unknown>, latencyMs = 0) => scriptedVerdict(overrides, latencyMs);

// The fake's delays run on the app's clock: a model's answer comes only when time moves (settle moves it).
const suite = appOnClockedFakeModels({ MODERATOR_CHECK_INTERVAL: '3', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3', SESSION_PLANNER_MAX_QUESTIONS: '0' });

describe('a pause while the Moderator checks the discussion', () => {
  it('lets no round start once the check ends, though the check changed nothing', async () => {
    const { fake, test } = suite;
    const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
    // Off-topic answers make the check ask its model, which takes 20 s and lets the discussion go on.
    scriptOffTopicAnswers(fake);
    fake.script({ role: 'moderator' }, verdict({ message: 'Welcome! Who starts?' }), verdict({}, 20_000));
    await test.say(null, 'How should we cache our public API responses?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    await test.command(room, 'approve');
    await vi.waitFor(() => expect(fake.pending({ role: 'moderator' })).toBe(0), { timeout: 5_000 });
    expect(participantCalls()).toBe(3);

    expect((await test.command(room, 'pause')).content).toMatch(/Paused/);
    await test.settle();
    expect(participantCalls()).toBe(3);
    expect((await test.app.repositories.sessions.findByRoom('memory', room))?.status).toBe('paused');
  });
});
