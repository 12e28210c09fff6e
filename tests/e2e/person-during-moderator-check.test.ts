/**
 * The Moderator checks the discussion between rounds, and a check that asks its model takes as long as any model
 * call (seconds, for a real one). A person who speaks meanwhile is answered at once, not after the check: the check
 * goes on beside their round.
 */
import { describe, expect, it, vi } from 'vitest';
import { scriptedVerdict, scriptOffTopicAnswers } from '../support/scripted-moderation.ts';
import { appOnClockedFakeModels } from '../support/app-on-fake-models.ts';

const verdict = (overrides: Record<string, unknown>, latencyMs = 0) => scriptedVerdict(overrides, latencyMs);

// The fake's delays run on the app's clock: a model's answer comes only when the test moves time.
const suite = appOnClockedFakeModels({ MODERATOR_CHECK_INTERVAL: '3', MAX_AI_ROUNDS_WITHOUT_HUMAN: '1', SESSION_PLANNER_MAX_QUESTIONS: '0' });

describe('a person who speaks while the Moderator checks the discussion', () => {
  it('is answered at once, while the check goes on', async () => {
    const { fake, test } = suite;
    const moderatorCalls = () => fake.chats.filter((chat) => chat.agent.role === 'moderator').length;
    const participantCalls = () => fake.chats.filter((chat) => chat.agent.role === 'participant').length;
    // Off-topic answers make the check ask the Moderator's model; it takes 20 s.
    scriptOffTopicAnswers(fake);
    fake.script(
      { role: 'moderator' },
      verdict({ message: 'Welcome! Who starts?' }),
      verdict({ action: 'redirect', drifting: true, message: 'Back to caching, please.' }, 20_000),
    );
    await test.say(null, 'How should we cache our public API responses?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    await test.command(room, 'approve');
    // The opening round's three answers, then the check: its model call is under way (no time moves meanwhile).
    await vi.waitFor(() => expect(fake.pending({ role: 'moderator' })).toBe(0), { timeout: 5_000 });
    const checksAsked = moderatorCalls();
    expect(participantCalls()).toBe(3);

    await test.say(room, 'Which layer would you cache first?');
    // Answered while the Moderator's model is still thinking: the three participants are asked at once.
    await vi.waitFor(() => expect(participantCalls()).toBe(6), { timeout: 5_000 });
    await test.settle();
    const said = test.transport.room(room).map((message) => message.content);
    expect(said).toContain('Back to caching, please.');
    expect(moderatorCalls()).toBeGreaterThanOrEqual(checksAsked);
  });

  it('and when the check ends the session meanwhile, it ends as a stop ends it: nothing is left pending, and the closing is the last word', async () => {
    const { fake, test } = suite;
    scriptOffTopicAnswers(fake);
    fake.script({ role: 'moderator' }, verdict({ message: 'Welcome! Who starts?' }), verdict({ objectivesMet: true, reason: 'the plan is covered' }, 20_000));
    await test.say(null, 'How should we cache our public API responses?');
    await test.settle();
    const room = test.transport.rooms.at(-1)!.roomId;
    await test.command(room, 'approve');
    await vi.waitFor(() => expect(fake.pending({ role: 'moderator' })).toBe(0), { timeout: 5_000 });
    await test.say(room, 'Which layer would you cache first?');
    // Their round starts while the check is still under way.
    await vi.waitFor(() => expect(fake.chats.filter((chat) => chat.agent.role === 'participant').length).toBeGreaterThanOrEqual(6), { timeout: 5_000 });
    await test.settle();

    const session = await test.app.repositories.sessions.findByRoom('memory', room);
    expect(session?.status).not.toBe('active');
    const stored = await test.app.repositories.messages.listForSession(session!.id);
    expect(stored.filter((message) => message.deliveryStatus === 'pending')).toEqual([]);
    expect(test.transport.room(room).at(-1)?.speaker).toBe('Moderator');
    expect(test.app.services.coordinator.busySessions()).toEqual([]);
  });
});
