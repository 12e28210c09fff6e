import { describe, expect, it } from 'vitest';
import { replies } from '../fakes/openrouter/fake-openrouter.ts';
import { appOnFakeModels } from '../support/app-on-fake-models.ts';
import { proposeSession } from '../support/session-driver.ts';

const suite = appOnFakeModels({ SESSION_PLANNER_MAX_QUESTIONS: '0', MAX_AI_ROUNDS_WITHOUT_HUMAN: '3' });

const grokNotices = (room: string) =>
  suite.test.transport
    .room(room)
    .filter((message) => message.speaker === 'Brainstorm' && /\bGrok\b/.test(message.content))
    .map((message) => message.content);

describe('a benched participant', () => {
  it('is announced when benched and again when it is back', async () => {
    const { fake, test } = suite;
    const room = await proposeSession(test, fake);
    fake.script({ participant: 'Grok' }, ...Array.from({ length: 9 }, () => replies.httpError(500)));
    await test.command(room, 'approve');
    await test.settle();
    const whileDown = grokNotices(room);
    expect(whileDown.at(-1)).toMatch(/Grok is benched for now/);
    expect(whileDown.some((notice) => /could not answer this time/.test(notice))).toBe(true);

    // The breaker's cool-down passes; the next turn is the half-open trial, and it succeeds.
    await test.clock.advance(60_000);
    fake.script({ participant: 'Grok' }, replies.text('Sorry for the silence: a staged rollout behind flags.'));
    await test.say(room, 'Grok, what do you think?');
    await test.settle();
    expect(grokNotices(room).slice(whileDown.length)).toEqual(['Grok is back: its model answers again.']);
    expect(test.transport.room(room).some((message) => message.speaker === 'Grok' && /staged rollout/.test(message.content))).toBe(true);
  });
});
