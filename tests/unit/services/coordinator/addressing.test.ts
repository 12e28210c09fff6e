import { describe, expect, it } from 'vitest';
import { addressedNames } from '../../../../src/services/coordinator/addressing.ts';

const NAMES = ['Claude', 'ChatGPT', 'Grok'];

describe('addressedNames', () => {
  it.each([
    ['Grok, what would you cut first?', ['Grok']],
    ['grok: and the cost?', ['Grok']],
    ['Claude and Grok: where do you disagree?', ['Claude', 'Grok']],
    ['Claude, ChatGPT & Grok, one line each.', ['Claude', 'ChatGPT', 'Grok']],
    ['@ChatGPT what about the budget?', ['ChatGPT']],
    ['I agree with the plan. Thanks @Claude.', ['Claude']],
    ['@Grok, @Claude: settle it', ['Claude', 'Grok']],
    ['I think the real risk is that only two of us know billing. Grok, would a strangler-fig approach help?', ['Grok']],
    ['Good points all round.\nClaude and ChatGPT: which would you drop?', ['Claude', 'ChatGPT']],
    ['What would you cut first, Grok?', ['Grok']],
    ['And the budget, @ChatGPT ?', ['ChatGPT']],
  ])('%s → %j', (text, expected) => {
    expect(addressedNames(text, NAMES)).toEqual(expected);
  });

  it.each([
    'What would everyone cut first?',
    'Hi team, what now?',
    'Claude said flags rot, but I disagree: who owns them?',
    'I think Grok is right about the cost.',
    'Mail the notes to ana@claude.example, please.',
    'Gemini, what do you think?',
    'We compared it with Claude, ChatGPT and Grok?',
    'Which one did better, Claude or Grok?',
    'The three of them agreed: ChatGPT, Claude, Grok.',
    'Is that what you meant, team?',
  ])('%s → nobody in particular', (text) => {
    expect(addressedNames(text, NAMES)).toEqual([]);
  });
});
