import { describe, expect, it } from 'vitest';
import type { ChatCompletionRequest } from '../../../src/simulator/chat-types.ts';
import { LATEST_ANSWERS_COMPARED, repeatedAnswer } from '../../../src/core/repetition.ts';
import { participantAnswer } from '../../../src/simulator/demo-writing.ts';

/** A participant's request as the app sends it: the demo plan's topic in its instructions, the Moderator's welcome last. */
function request(name: string, variant: number): ChatCompletionRequest {
  const topic = 'How should a small team run weekly retrospectives? — planned around what Dana and Jonas told the Planner: “remote, 45 minutes”';
  return {
    model: 'demo',
    messages: [
      { role: 'system', content: `You are ${name}, a participant in a Brainstorm session.\nTopic: ${topic}` },
      { role: 'user', content: `[Moderator]: Welcome, everyone (${variant}). Share your first ideas.` },
    ],
  };
}

describe('demo participants', () => {
  it('take ideas from the topic, never the names of the people the Planner heard from ("Dana told")', () => {
    const picked = ['Claude', 'ChatGPT', 'Grok'].flatMap((name) =>
      Array.from({ length: 12 }, (_, variant) => /"([^"]+)"/.exec(participantAnswer(name, request(name, variant)))?.[1] ?? ''),
    );
    expect(picked.filter((idea) => /dana|jonas|told/i.test(idea))).toEqual([]);
    expect(picked.some((idea) => /retrospectives|small team/i.test(idea))).toBe(true);
  });

  it('discuss the options of a topic that weighs them, about what they are for, never about who told the Planner', () => {
    const topic = 'How should our team decide between Postgres and DynamoDB for billing? — planned around what Dana told the Planner: “A decision by Friday.”';
    const answers = ['Claude', 'ChatGPT', 'Grok'].flatMap((name) =>
      Array.from({ length: 8 }, (_, variant) =>
        participantAnswer(name, {
          model: 'demo',
          messages: [
            { role: 'system', content: `You are ${name}, a participant in a Brainstorm session.\nTopic: ${topic}` },
            { role: 'user', content: `[Moderator]: Welcome, everyone (${variant}). Share your first ideas.` },
          ],
        }),
      ),
    );
    expect(answers.filter((answer) => /dana told|told the planner/i.test(answer))).toEqual([]);
    const ideas = new Set(answers.map((answer) => /"([^"]+)"/.exec(answer)?.[1]));
    expect([...ideas].sort()).toEqual(['DynamoDB', 'Postgres']);
    expect(answers.filter((answer) => answer.includes('billing'))).not.toEqual([]);
  });

  it('never say again a line they said before in the conversation, to whomever they said it', () => {
    const instructions = {
      role: 'system' as const,
      content: 'You are a participant in a Brainstorm session.\nTopic: How should a small team choose between a mobile app and a web app?',
    };
    const heard = { role: 'user' as const, content: '[ChatGPT]: I think the "mobile app" needs a clear owner.' };
    for (const name of ['Claude', 'ChatGPT', 'Grok']) {
      const answer = (said: string) => participantAnswer(name, { model: 'demo', messages: [instructions, { role: 'assistant', content: said }, heard] });
      const line = answer('An earlier point.').replace(/ — \w+ \(simulated\)$/, '');
      expect(answer(line)).not.toContain(line);
      // The same line said to someone else before ("Devil's advocate, Claude: …" then "…, ChatGPT: …").
      const toSomeoneElse = line.replace(/ChatGPT|everyone/, 'Ada');
      expect(toSomeoneElse).not.toBe(line);
      expect(answer(toSomeoneElse)).not.toContain(line.slice(line.indexOf('"')));
    }
  });

  it('never take an idea from the line\'s own words around the subject ("emails entirely")', () => {
    const instructions = {
      role: 'system' as const,
      content: 'You are a participant in a Brainstorm session.\nTopic: Which onboarding emails should we send to new trial users?',
    };
    const picked = ['Claude', 'ChatGPT', 'Grok'].flatMap((name) =>
      Array.from({ length: 4 }, (_, variant) => {
        const line = `[Grok]: Devil's advocate, Claude: what if "trial users" is the wrong frame for the onboarding emails entirely? (${variant}) — Grok (simulated)`;
        return /"([^"]+)"/.exec(participantAnswer(name, { model: 'demo', messages: [instructions, { role: 'user', content: line }] }))?.[1] ?? '';
      }),
    );
    expect(picked.filter((idea) => /entirely/.test(idea))).toEqual([]);
    expect(picked).toContain('trial users');
  });

  it('never repeat one of their latest answers, even once every line of their style was said with the only idea at hand', () => {
    const instructions = {
      role: 'system' as const,
      content: 'You are a participant in a Brainstorm session.\nTopic: Should we rewrite the billing service in Rust?',
    };
    for (const name of ['Claude', 'ChatGPT', 'Grok']) {
      const answers: string[] = [];
      // Never one of its latest answers again (what the check reads), whichever lines are left.
      for (let round = 0; round < 40; round += 1) {
        const turns = answers.flatMap((said) => [{ role: 'assistant' as const, content: said }]);
        const heard = { role: 'user' as const, content: `[Ana (person)]: What about the "billing service" (${round})?` };
        const answer = participantAnswer(name, { model: 'demo', messages: [instructions, ...turns, heard] });
        const compared = answers.slice(-LATEST_ANSWERS_COMPARED);
        expect(
          repeatedAnswer(
            answer,
            compared.map((text) => ({ text })),
          ),
          `${name} in round ${round}: ${answer}`,
        ).toBeNull();
        answers.push(answer);
      }
    }
  });
});
