import { describe, expect, it } from 'vitest';
import { keyPhrasesOf, subjectOf, topicOf } from '../../../src/simulator/conversation-reading.ts';

describe("the demo's key phrases of a topic", () => {
  it('are the heads of its noun phrases, two-word ones first, then names, as typed', () => {
    expect(keyPhrasesOf('How should a 6-person team run weekly planning without it eating Monday morning?', 3)).toEqual([
      '6-person team',
      'weekly planning',
      'Monday morning',
    ]);
    expect(keyPhrasesOf('Tight budget: how do we cut onboarding time for B2B admins?', 3)).toEqual(['tight budget', 'onboarding time', 'B2B admins']);
    expect(keyPhrasesOf('Should we rewrite the billing service in Rust?', 2)).toEqual(['billing service', 'Rust']);
    expect(keyPhrasesOf('Ideas for the company offsite in Lisbon', 3)).toEqual(['company offsite', 'Lisbon', 'ideas']);
    expect(keyPhrasesOf('We want a decision. Constraint: no meeting over 30 minutes, with Berlin.', 3)).toEqual(['Berlin', 'decision', 'constraint']);
    expect(keyPhrasesOf('ok?', 2)).toEqual([]);
    // A verb ends a run ("five decide" is no phrase), and a short noun heads one ("mobile app").
    expect(keyPhrasesOf('How should a small team of five decide between building a mobile app or a responsive web app for their first product?', 4)).toEqual([
      'small team',
      'mobile app',
      'web app',
      'first product',
    ]);
    expect(keyPhrasesOf('Should a five-person team ship every week, and how without burning out?', 2)).toEqual(['five-person team', 'week']);
    expect(keyPhrasesOf('How do we cut our AWS bill by 30% without slowing the team?', 3)).toEqual(['AWS bill', 'team']);
    expect(keyPhrasesOf('How can we stop burning money on unused licenses?', 3)).toEqual(['unused licenses', 'money']);
    expect(keyPhrasesOf('Keeping the on-call rotation fair for a team of six', 3)).toEqual(['on-call rotation', 'team']);
    // A time word or a verb ends a run: "VM today" and "team owns" are no phrases.
    expect(keyPhrasesOf('We run on a single VM today, and the data team owns the biggest spend.', 3)).toEqual(['single VM', 'data team', 'biggest spend']);
    // A comparative ends a run too: "review faster" is no phrase.
    expect(keyPhrasesOf('How do we make code review faster?', 2)).toEqual(['code review']);
    expect(keyPhrasesOf('How can we make our weekly planning meeting shorter?', 2)).toEqual(['planning meeting']);
    expect(keyPhrasesOf('We want it under 30 minutes, 8 people attend.', 3)).toEqual(['minutes', 'people']);
    // A gerund after its subject is a verb: "engineers running" is no phrase.
    expect(keyPhrasesOf('We are 6 engineers running a Rails monolith. Should we split out the billing module into its own service?', 3)).toEqual([
      'Rails monolith',
      'billing module',
      'engineers',
    ]);
    expect(keyPhrasesOf('Our support team drowns in repetitive tickets.', 2)).toEqual(['support team', 'repetitive tickets']);
    expect(keyPhrasesOf('Would a strangler-fig approach help if the new service fails?', 2)).toEqual(['strangler-fig approach', 'service']);
  });

  it('read as the subject of a sentence', () => {
    expect(subjectOf('weekly planning', 'this')).toBe('the weekly planning');
    expect(subjectOf('Lisbon', 'this')).toBe('Lisbon');
    expect(subjectOf('Monday morning', 'this')).toBe('Monday morning');
    expect(subjectOf('CLI tool', 'this')).toBe('the CLI tool');
    expect(subjectOf('B2B admins', 'this')).toBe('the B2B admins');
    expect(subjectOf('Rails monolith', 'this')).toBe('the Rails monolith');
    expect(subjectOf('New York', 'this')).toBe('New York');
    expect(subjectOf(undefined, 'this')).toBe('this');
  });

  it('come from a topic cut at a word, never in the middle of one ("anything outs")', () => {
    const long = `Async standups across 3 timezones, planned around what Ana said: “${'We need a decision to try next week. '.repeat(4)}Nobody attends anything outside 9-17 local time.”`;
    // Two hundred characters end inside a word.
    expect(long.slice(0, 200)).toMatch(/\p{L}$/u);
    expect(long[200]).toMatch(/\p{L}/u);
    const topic = topicOf({ model: 'demo', messages: [{ role: 'system', content: `Topic: ${long}` }] });
    expect(topic).toMatch(/…$/);
    const words = new Set(long.split(/\s+/));
    expect(
      topic
        .slice(0, -1)
        .split(/\s+/)
        .every((word) => words.has(word)),
    ).toBe(true);
  });
});
