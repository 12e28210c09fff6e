import { describe, expect, it } from 'vitest';
import { visibleAnswer, withoutOwnLabel, withoutThinking } from '../../../src/core/answer-text.ts';

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

describe('withoutThinking', () => {
  it('drops closed thinking blocks, as local reasoning models write them into the answer', () => {
    expect(withoutThinking('<think>\nThey want a rollout plan…\n</think>\n\nStart with one team.')).toBe('Start with one team.');
    expect(withoutThinking('<thinking>a</thinking>Start. <think>b</think>Then widen.')).toBe('Start. Then widen.');
  });

  it('shows nothing while the answer is still inside its thinking, as a stream writes it', () => {
    expect(withoutThinking('<think>\nThey want a rollout')).toBe('');
    expect(withoutThinking('  <think>')).toBe('');
  });

  it("starts after a lone closing tag: the model's template sent the opening one", () => {
    expect(withoutThinking('They want a plan.\n</think>\n\nStart with one team.')).toBe('Start with one team.');
  });

  it('leaves an answer without thinking alone', () => {
    expect(withoutThinking('Start with one team.')).toBe('Start with one team.');
  });
});

describe('visibleAnswer', () => {
  it('takes the thinking off, then the label', () => {
    expect(visibleAnswer('<think>hm</think>\n[Claude]: Start with one team.', 'Claude')).toBe('Start with one team.');
  });
});
