import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import { limitsConfig, openRepositories, storeSession, type TestRepositories } from '../../../support/service-doubles.ts';

let open: TestRepositories | null = null;
afterEach(async () => {
  await open?.handle.close();
  open = null;
});

describe("a session's context use in its limits report", () => {
  it('after a restart (nothing recorded in this process) is read from the latest answer; a turn since then decides', async () => {
    const clock = new ManualClock();
    open = await openRepositories();
    const session = await storeSession(open.sessions, clock);
    const answer = (inputTokens: number) =>
      open!.messages.insert(
        {
          sessionId: session.id,
          speaker: { kind: 'participant', name: 'Claude' },
          role: 'assistant',
          text: 'Start with payments.',
          model: 'anthropic/claude-sonnet-4',
          inputTokens,
          outputTokens: 40,
          deliveryStatus: 'delivered',
        },
        clock.now(),
      );
    await answer(20_000);
    await answer(50_000);
    await open.messages.insert(
      { sessionId: session.id, speaker: { kind: 'human', name: 'Ada' }, role: 'user', text: 'And then?', deliveryStatus: 'delivered' },
      clock.now(),
    );
    const limits = new LimitsService(
      open.messages,
      () => limitsConfig(),
      clock,
      async () => 200_000,
    );
    expect((await limits.report(session)).contextPercent.used).toBe(25);
    limits.recordContextUse(session.id, 31.4);
    expect((await limits.report(session)).contextPercent.used).toBe(31);
  });
});
