import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../../src/services/commands/command-parser.ts';
import { CommandRateLimiter } from '../../../../src/services/commands/command-rate-limiter.ts';
import { formatStatus, progressBar } from '../../../../src/services/commands/status-format.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { Session } from '../../../../src/core/domain.ts';
import { clampPlan } from '../../../../src/services/sessions/plan-format.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';

describe('parseCommand', () => {
  it('parses a name and its arguments, case-insensitively', () => {
    expect(parseCommand('!Explore  kill switches\nand more')).toEqual({ name: 'explore', args: 'kill switches\nand more' });
    expect(parseCommand('  !stop ')).toEqual({ name: 'stop', args: '' });
  });
  it('is not fooled by ordinary text', () => {
    expect(parseCommand('I think !stop is fine')).toBeNull();
    expect(parseCommand('!!')).toBeNull();
    expect(parseCommand('!123')).toBeNull();
  });
});

describe('progress bars and status', () => {
  it('draws a bar proportional to use, clamped at both ends', () => {
    expect(progressBar(0, 10)).toBe('░'.repeat(12));
    expect(progressBar(5, 10)).toBe(`${'█'.repeat(6)}${'░'.repeat(6)}`);
    expect(progressBar(50, 10)).toBe('█'.repeat(12));
    expect(progressBar(3, 0)).toBe('░'.repeat(12));
  });
  it('shows every limit with its use', () => {
    const session = { status: 'active', topic: 'Flags' } as Session;
    const text = formatStatus(session, {
      messages: { used: 20, limit: 40 },
      tokens: { used: 1000, limit: 200_000 },
      costUsd: { used: 0.5, limit: 1 },
      minutes: { used: 12.4, limit: 30 },
      contextPercent: { used: 35, limit: 70 },
      balance: [{ speaker: 'Claude', messages: 7 }],
      exceeded: [],
    });
    expect(text).toContain('Messages ██████░░░░░░  20/40');
    expect(text).toContain('$0.50/$1.00');
    expect(text).toContain('Claude 7');
  });
});

describe('CommandRateLimiter', () => {
  it('allows the limit per minute per person, then says how long to wait, then allows again', async () => {
    const clock = new ManualClock();
    const limiter = new CommandRateLimiter(clock, () => 2);
    expect(limiter.attempt('a')).toBe(0);
    expect(limiter.attempt('a')).toBe(0);
    expect(limiter.attempt('b')).toBe(0);
    expect(limiter.attempt('a')).toBe(60);
    await clock.advance(60_001);
    expect(limiter.attempt('a')).toBe(0);
  });
});

describe('clampPlan', () => {
  const bounds = {
    maxMessages: 100,
    maxTokens: 50_000,
    maxCostUsd: 2,
    maxContextPercent: 80,
    contextRefreshPercent: 50,
    timeoutMinutes: 60,
    maxAiResponsesPerTurn: 3,
    batchWindowSeconds: 60,
    maxAiRoundsWithoutHuman: 6,
    maxHumanMessageChars: 8000,
    humanMessagesPerMinute: 10,
  };
  it('keeps a plan inside the bounds and says what changed', () => {
    const { plan, adjustments } = clampPlan(scriptedPlan({ maxMessages: 5000, maxCostUsd: -3 }), bounds);
    expect(plan.parameters.maxMessages).toBe(100);
    expect(plan.parameters.maxCostUsd).toBe(0.01);
    expect(adjustments).toEqual(['max messages 5000 → 100', 'max tokens 200000 → 50000', 'max cost -3 → 0.01']);
  });
  it("keeps the estimate within the plan's limits, silently (a session stops at them)", () => {
    const planned = scriptedPlan({ maxMessages: 12, maxTokens: 40_000, timeoutMinutes: 5, maxCostUsd: 0.05 });
    const { plan, adjustments } = clampPlan({ ...planned, estimate: { durationMinutes: 15, costUsd: 0.2, messages: 40 } }, bounds);
    expect(plan.estimate).toEqual({ durationMinutes: 5, costUsd: 0.05, messages: 12 });
    expect(adjustments).toEqual([]);
    expect(clampPlan({ ...planned, estimate: { durationMinutes: 3, costUsd: 0.01, messages: 8 } }, bounds).plan.estimate).toEqual({
      durationMinutes: 3,
      costUsd: 0.01,
      messages: 8,
    });
  });
  it('leaves a plan within bounds untouched', () => {
    expect(clampPlan(scriptedPlan({ maxMessages: 40, maxTokens: 40_000 }), bounds).adjustments).toEqual([]);
  });
});
