import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.ts';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('systemClock.sleep', () => {
  it('sleeps nothing for a deadline already past, without a warning in the logs', async () => {
    process.on('warning', onWarning);
    await systemClock.sleep(-217);
    // Node emits its warnings on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it('rejects with the reason of a signal aborted while it sleeps', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(sleeping).rejects.toThrow('stopped');
  });
});
