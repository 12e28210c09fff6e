import { describe, expect, it } from 'vitest';
import { isApprovalPhrase } from '../../../../src/services/sessions/approval-phrases.ts';

describe('isApprovalPhrase', () => {
  it.each([
    'looks good, approve',
    'LGTM',
    'ok',
    'Yes please!',
    'lgtm, go ahead 👍',
    'Sounds good to me. Let’s go!',
    '👍',
    'approve the plan',
    'ok then go ahead',
  ])('reads %j as approval', (text) => {
    expect(isApprovalPhrase(text)).toBe(true);
  });

  it.each([
    'ok, but add a skeptic',
    'no',
    'Looks good but keep it to 20 messages',
    'go deeper on pricing',
    'Please focus on kill switches instead.',
    '',
    'why?',
  ])('reads %j as a comment', (text) => {
    expect(isApprovalPhrase(text)).toBe(false);
  });
});
