import { describe, expect, it } from 'vitest';
import { settingKeyOf, settingsMeant } from '../../../../src/services/settings/tunable-settings.ts';

describe('setting names as people type them', () => {
  it('read in the form of the keys', () => {
    expect(settingKeyOf('maxMessages')).toBe('MAX_MESSAGES');
    expect(settingKeyOf(' max-cost.usd ')).toBe('MAX_COST_USD');
    expect(settingKeyOf('MAX_TOKENS_PER_CONVERSATION')).toBe('MAX_TOKENS_PER_CONVERSATION');
  });

  it('name the settings they may mean: one, a few, or none when too many or none fit', () => {
    expect(settingsMeant(settingKeyOf('maxMessages'))).toEqual(['MAX_MESSAGES_PER_CONVERSATION']);
    expect(settingsMeant(settingKeyOf('maxContextPercent'))).toEqual(['MAX_CONTEXT_WINDOW_PERCENT']);
    expect(settingsMeant(settingKeyOf('timeout'))).toEqual(['CONVERSATION_TIMEOUT_MINUTES', 'SESSION_PLANNER_TIMEOUT_MINUTES']);
    expect(settingsMeant(settingKeyOf('max'))).toEqual([]);
    expect(settingsMeant(settingKeyOf('bogus'))).toEqual([]);
    expect(settingsMeant('')).toEqual([]);
  });
});
