import { describe, expect, it } from 'vitest';
import type { SessionPlan } from '../../../../src/core/domain.ts';
import { limitDirective, withLimitDirectives } from '../../../../src/services/sessions/limit-directive.ts';

describe('limitDirective', () => {
  it.each([
    ['Please keep it to 20 messages max.', { maxMessages: 20 }],
    ['20 messages is plenty', { maxMessages: 20 }],
    ['Limit it to 15 minutes and a budget of $0.50', { timeoutMinutes: 15, maxCostUsd: 0.5 }],
    ['No more than 2 hours, please', { timeoutMinutes: 120 }],
    ['spend at most 3 dollars', { maxCostUsd: 3 }],
    ['cap it at 50k tokens', { maxTokens: 50_000 }],
    ['keep it under 100,000 tokens', { maxTokens: 100_000 }],
    ['We only have 30 minutes.', { timeoutMinutes: 30 }],
    ['Limit it to 20 messages to keep it short', { maxMessages: 20 }],
  ])('reads %j as a limit', (comment, expected) => {
    expect(limitDirective(comment)).toEqual(expected);
  });

  it.each([
    'The last session ran 60 messages and felt long.',
    'Focus on plans under $50 a month.',
    'Only look at tools under $50.',
    'Give each idea under 5 minutes per person.',
    'Our budget is $5k for tooling.',
    'keep it to $20,000 a year',
    'Add Grok as the skeptic.',
    'max 3 participants',
    'Only consider options that take under 30 minutes to set up.',
    'What can ship within 2 hours of the release?',
  ])('reads %j as no limit of the session', (comment) => {
    expect(limitDirective(comment)).toEqual({});
  });
});

describe('withLimitDirectives', () => {
  const plan = {
    parameters: { maxMessages: 40, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 40, maxContextPercent: 70 },
  } as Pick<SessionPlan, 'parameters'> as SessionPlan;

  it('sets what the comments name, the latest comment deciding, and leaves the rest', () => {
    const directed = withLimitDirectives(plan, ['keep it to 20 messages', 'actually 25 messages max', 'and 15 minutes at most']);
    expect(directed.parameters).toEqual({ maxMessages: 25, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 15, maxContextPercent: 70 });
  });

  it('returns the plan itself when no comment names a limit', () => {
    expect(withLimitDirectives(plan, ['Add a critique round'])).toBe(plan);
  });
});
