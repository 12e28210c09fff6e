import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SMALL_HOST_V8_FLAGS } from '../../scripts/runtime-flags.mjs';
import { startAppProcess, waitForHealthy } from '../support/app-process.ts';

/** The flags the app's own process runs with, as the kernel has them. */
const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

describe.runIf(process.platform === 'linux')('npm start on a small host', () => {
  it('SMALL_HOST=yes replaces the process with one that has the small-host flags: same pid, and it serves', async () => {
    const app = await startAppProcess({ environment: { SMALL_HOST: 'yes', LOG_LEVEL: 'info' } });
    try {
      await waitForHealthy(app.url);
      expect(commandLine(app.pid)).toEqual(expect.arrayContaining([...SMALL_HOST_V8_FLAGS]));
      expect(app.output()).toMatch(/brainstorm: small-host mode \(\d+ MB of memory, SMALL_HOST=yes\): --optimize-for-size --liftoff-only/);
      // Said once: the replaced process has the flags and does not replace itself again.
      expect(app.output().match(/small-host mode/g)).toHaveLength(1);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('SMALL_HOST=no keeps the default flags whatever the memory', async () => {
    const app = await startAppProcess({ environment: { SMALL_HOST: 'no' } });
    try {
      await waitForHealthy(app.url);
      expect(commandLine(app.pid)).not.toContain('--liftoff-only');
      expect(app.output()).not.toMatch(/small-host mode/);
    } finally {
      await app.stop();
    }
  }, 60_000);
});
