import { describe, expect, it } from 'vitest';
import { repeatedAnswer } from '../../../src/core/repetition.ts';

const said = (text: string, number: number) => ({ text, number });

describe('repeatedAnswer', () => {
  const first = said('Start with the payment path: it carries the most risk and had the most incidents this year.', 4);
  const second = said('A kill switch per risky path, owned by whoever is on call, and reviewed every quarter.', 9);

  it('finds an answer said again, in other punctuation and case, or only in part', () => {
    expect(repeatedAnswer('start with the payment path -- it carries the most risk, and had the most incidents this year!', [first, second])).toBe(first);
    expect(repeatedAnswer('A kill switch per risky path, owned by whoever is on call.', [first, second])).toBe(second);
  });

  it('finds the newest earlier answer it repeats', () => {
    const again = said(first.text, 12);
    expect(repeatedAnswer(first.text, [first, second, again])).toBe(again);
  });

  it('lets through an answer that adds a tenth of new words or more, short answers, and a first answer', () => {
    expect(repeatedAnswer(`${first.text} Measure deploy failures per week, before and after, for two weeks.`, [first])).toBeNull();
    expect(repeatedAnswer('Agreed, ship it this week.', [said('Agreed, ship it this week.', 3)])).toBeNull();
    expect(repeatedAnswer(first.text, [])).toBeNull();
  });
});
