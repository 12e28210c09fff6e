import { describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../../../src/config/app-config.ts';
import { raisedLimitsNote, withViableLimits } from '../../../../src/services/sessions/viable-limits.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';

const defaults: LimitsConfig = {
  maxMessages: 40,
  maxTokens: 200_000,
  maxCostUsd: 1,
  maxContextPercent: 70,
  contextRefreshPercent: 50,
  timeoutMinutes: 30,
  maxAiResponsesPerTurn: 3,
  batchWindowSeconds: 60,
  maxAiRoundsWithoutHuman: 6,
  maxHumanMessageChars: 8000,
  humanMessagesPerMinute: 10,
};

describe('withViableLimits', () => {
  it("raises a limit too small for a discussion to the admin's default, and says which", () => {
    // One answer's token budget given as the session's, and a model that answers 1 for every number.
    const { plan, raised } = withViableLimits(scriptedPlan({ maxMessages: 1, maxTokens: 4000, maxCostUsd: 0.01, timeoutMinutes: 1 }), defaults);
    expect(plan.parameters).toMatchObject({ maxMessages: 40, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 30 });
    expect(raisedLimitsNote(raised)).toBe(
      '_Raised to leave room for a discussion: max messages 1 → 40, max tokens 4000 → 200000, max cost 0.01 → 1, timeout minutes 1 → 30. A comment such as "keep it to 8 messages" sets a limit lower._',
    );
  });

  it('keeps limits that leave room for a discussion, and never raises past an admin default set below the least', () => {
    const small = scriptedPlan({ maxMessages: 6, maxTokens: 20_000, maxCostUsd: 0.05, timeoutMinutes: 5 });
    expect(withViableLimits(small, defaults)).toEqual({ plan: small, raised: [] });
    const strictAdmin = { ...defaults, maxMessages: 4 };
    expect(withViableLimits(scriptedPlan({ maxMessages: 5 }), strictAdmin).raised).toEqual([]);
    expect(withViableLimits(scriptedPlan({ maxMessages: 2 }), strictAdmin).raised).toEqual([{ parameter: 'maxMessages', from: 2, to: 4 }]);
    expect(raisedLimitsNote([])).toBeNull();
  });
});
