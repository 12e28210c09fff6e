import { describe, expect, it } from 'vitest';
import { keyPhrasesOf, subjectOf } from '../../../src/simulator/conversation-reading.ts';

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
  });

  it('read as the subject of a sentence', () => {
    expect(subjectOf('weekly planning', 'this')).toBe('the weekly planning');
    expect(subjectOf('Lisbon', 'this')).toBe('Lisbon');
    expect(subjectOf(undefined, 'this')).toBe('this');
  });
});
