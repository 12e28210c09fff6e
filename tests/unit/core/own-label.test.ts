import { describe, expect, it } from 'vitest';
import { withoutOwnLabel } from '../../../src/core/own-label.ts';

describe('withoutOwnLabel', () => {
  it.each([
    ['[Claude]: Start with payments.', 'Start with payments.'],
    ['Claude: Start with payments.', 'Start with payments.'],
    ['**Claude:** Start with payments.', 'Start with payments.'],
    ['  [claude]:\nStart with payments.', 'Start with payments.'],
  ])('takes the label off %j', (answer, expected) => {
    expect(withoutOwnLabel(answer, 'Claude')).toBe(expected);
  });

  it('holds back a start that could still become the label, as a stream writes it', () => {
    expect(withoutOwnLabel('[Cla', 'Claude')).toBe('');
    expect(withoutOwnLabel('Claude', 'Claude')).toBe('');
    expect(withoutOwnLabel('Claude is right', 'Claude')).toBe('Claude is right');
  });

  it("leaves an answer alone that opens otherwise, or names someone else's label (the impersonation guardrail's case)", () => {
    expect(withoutOwnLabel('Start with payments. Claude: later.', 'Claude')).toBe('Start with payments. Claude: later.');
    expect(withoutOwnLabel('[Grok]: no', 'Claude')).toBe('[Grok]: no');
    expect(withoutOwnLabel('C++ first', 'Claude')).toBe('C++ first');
  });
});
