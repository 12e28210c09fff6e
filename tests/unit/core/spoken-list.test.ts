import { describe, expect, it } from 'vitest';
import { spokenList } from '../../../src/core/spoken-list.ts';

describe('a list as a person says it', () => {
  it('joins the last word with the conjunction and the others with commas', () => {
    expect(spokenList([], 'and')).toBe('');
    expect(spokenList(['Claude'], 'and')).toBe('Claude');
    expect(spokenList(['Claude', 'Grok'], 'and')).toBe('Claude and Grok');
    expect(spokenList(['planning', 'awaiting approval', 'active'], 'or')).toBe('planning, awaiting approval or active');
  });
});
