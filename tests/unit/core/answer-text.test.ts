import { describe, expect, it } from 'vitest';
import { visibleAnswer, withoutOwnLabel, withoutThinking } from '../../../src/core/answer-text.ts';
import { seeded, timed } from '../../support/adversarial-text.ts';

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

  it('takes out the same blocks past many opening tags as with few, scanning the tags once', () => {
    // What it does with a few tags, as the reference: each block ends at the first closing tag of its name.
    const reference = (text: string) => {
      const closed = text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>\s*/gi, '');
      if (/^\s*<(?:think|thinking|reasoning)>/i.test(closed)) return '';
      return /<(?:think|thinking|reasoning)>/i.test(closed) ? closed : closed.replace(/^[\s\S]*?<\/(?:think|thinking|reasoning)>\s*/i, '');
    };
    const pieces = ['<think>', '</think>', '<THINK>', '</Think>', '<thinking>', '</thinking>', '<reasoning>', '</reasoning>', ' ', '\n', 'a', '<', '</'];
    const random = seeded(17);
    const many = '<think>x</think>'.repeat(40);
    for (let sample = 0; sample < 3000; sample += 1) {
      const length = 1 + Math.floor(random() * 12);
      const tail = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const text = `Answer. ${many}${tail}`;
      expect(withoutThinking(text), JSON.stringify(tail)).toBe(reference(text));
    }
  });

  it('reads thousands of unclosed opening tags in linear time', () => {
    expect(timed('withoutThinking', () => withoutThinking(`Answer. ${'<think>'.repeat(50_000)}`))).toBe(`Answer. ${'<think>'.repeat(50_000)}`);
  });
});

describe('visibleAnswer', () => {
  it('takes the thinking off, then the label', () => {
    expect(visibleAnswer('<think>hm</think>\n[Claude]: Start with one team.', 'Claude')).toBe('Start with one team.');
  });
});
