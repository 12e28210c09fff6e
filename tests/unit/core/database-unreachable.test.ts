import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError, isDatabaseUnreachable, whenReachable } from '../../../src/core/database-unreachable.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';

const away = () => new DatabaseUnreachableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });

describe('an unreachable database', () => {
  it('is known through the errors that wrap it, and only then', () => {
    expect(isDatabaseUnreachable(new Error('a service failed', { cause: new Error('a store failed', { cause: away() }) }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('connect ECONNREFUSED 127.0.0.1:443'))).toBe(false);
    expect(isDatabaseUnreachable('not an error')).toBe(false);
  });

  it('is waited out by a write that records what already happened, and given up on after its patience', async () => {
    const clock = new ManualClock('2026-12-07T09:00:00Z');
    let failures = 3;
    const recorded = whenReachable(
      async () => {
        if (failures-- > 0) throw away();
        return 'recorded';
      },
      { clock },
    );
    expect(await settleWithClock(recorded, clock, 1000)).toBe('recorded');
    const refused = new Error('duplicate key value violates unique constraint');
    await expect(whenReachable(async () => Promise.reject(refused), { clock })).rejects.toBe(refused);
    const never = whenReachable(async () => Promise.reject(away()), { clock, patienceMs: 10_000 });
    never.catch(() => undefined);
    await settleWithClock(
      never.catch(() => undefined),
      clock,
      1000,
    );
    await expect(never).rejects.toBeInstanceOf(DatabaseUnreachableError);
  });
});
