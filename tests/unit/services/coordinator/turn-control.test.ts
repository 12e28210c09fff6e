import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { cutReason, TurnControl } from '../../../../src/services/coordinator/turn-control.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import type { LimitsConfig } from '../../../../src/config/app-config.ts';
import type { MessagesRepository } from '../../../../src/repositories/messages-repository.ts';
import type { Session } from '../../../../src/core/domain.ts';

const deadlines = { firstTokenMs: 20_000, answerMs: 60_000 };

describe("a turn's own deadlines, on the injected clock", () => {
  it('cuts a turn that shows nothing before its first-token deadline', async () => {
    const clock = new ManualClock();
    const control = new TurnControl(new AbortController().signal, clock, deadlines);
    await clock.advance(19_999);
    expect(control.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(cutReason(control.signal)).toBe('first_token_deadline');
    expect(control.armedDeadlines).toBe(0);
  });

  it('lets a visible answer run to its whole-answer deadline, then cuts it', async () => {
    const clock = new ManualClock();
    const control = new TurnControl(new AbortController().signal, clock, deadlines);
    control.markVisible();
    await clock.advance(30_000);
    expect(control.signal.aborted).toBe(false);
    await clock.advance(30_000);
    expect(cutReason(control.signal)).toBe('answer_deadline');
  });

  it('takes the stop of its round as its own, and disarms its deadlines when settled', async () => {
    const clock = new ManualClock();
    const round = new AbortController();
    const stopped = new TurnControl(round.signal, clock, deadlines);
    const settled = new TurnControl(new AbortController().signal, clock, deadlines);
    expect(clock.pendingSleepers).toBe(4);
    settled.settle();
    round.abort();
    expect(cutReason(stopped.signal)).toBe('stopped');
    expect(settled.signal.aborted).toBe(false);
    await clock.advance(0);
    expect(clock.pendingSleepers).toBe(0);
    expect(stopped.armedDeadlines + settled.armedDeadlines).toBe(0);
  });
});

describe('limits take only the seats left', () => {
  const bounds = { maxMessages: 40, maxTokens: 1000, maxCostUsd: 1, timeoutMinutes: 60, maxContextPercent: 70 } as LimitsConfig;
  const messages = { countBySpeaker: async () => [] } as unknown as MessagesRepository;
  const session = (messageCount: number, totalTokens = 0) =>
    ({ id: 's1', plan: null, messageCount, totalTokens, totalCostUsd: 0, startedAt: null }) as unknown as Session;

  it('gives a round no more seats than the messages left, less the answers in flight', () => {
    const limits = new LimitsService(messages, () => bounds, new ManualClock());
    expect(limits.seatsLeft(session(38), 0)).toBe(2);
    expect(limits.seatsLeft(session(38), 1)).toBe(1);
    expect(limits.seatsLeft(session(42), 0)).toBe(0);
  });

  it('never reads a limit past its maximum, and still reports it reached', async () => {
    const limits = new LimitsService(messages, () => bounds, new ManualClock());
    const report = await limits.report(session(42, 1500));
    expect(report.messages).toEqual({ used: 40, limit: 40 });
    expect(report.tokens).toEqual({ used: 1000, limit: 1000 });
    expect(report.exceeded).toEqual(['messages', 'tokens']);
  });
});
