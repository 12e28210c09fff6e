import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SMALL_HOST_V8_FLAGS } from '../../scripts/runtime-flags.mjs';
import { startAppProcess, waitForHealthy } from '../support/app-process.ts';
import { createThrowawayPostgres } from '../support/databases.ts';

/** The flags the app's own process runs with, as the kernel has them. */
const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
/** The environment the app's own process started with, as the kernel has it. */
const environmentOf = (pid: number): string[] => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
const onGlibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

describe.runIf(process.platform === 'linux')('npm start on a small host', () => {
  it('SMALL_HOST=yes replaces the process with one that has the small-host flags: same pid, and it serves', async () => {
    const app = await startAppProcess({ environment: { SMALL_HOST: 'yes', LOG_LEVEL: 'info' } });
    try {
      await waitForHealthy(app);
      expect(commandLine(app.pid)).toEqual(expect.arrayContaining([...SMALL_HOST_V8_FLAGS]));
      expect(app.output()).toMatch(/brainstorm: small-host mode \(\d+ MB of memory, SMALL_HOST=yes\): --optimize-for-size --liftoff-only/);
      if (onGlibc) expect(environmentOf(app.pid)).toContain('MALLOC_MMAP_THRESHOLD_=16384');
      // Said once: the replaced process has the flags and does not replace itself again.
      expect(app.output().match(/small-host mode/g)).toHaveLength(1);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('SMALL_HOST=no keeps the default flags whatever the memory, with glibc kept to two arenas and an 8 MB trim threshold', async () => {
    const app = await startAppProcess({ environment: { SMALL_HOST: 'no' } });
    try {
      await waitForHealthy(app);
      expect(commandLine(app.pid)).not.toContain('--liftoff-only');
      expect(app.output()).not.toMatch(/small-host mode/);
      // The default mode maps no 16 KB blocks on their own (that cost every start 1.5-1.9 s there); it keeps two arenas.
      expect(environmentOf(app.pid).some((entry) => entry.startsWith('MALLOC_MMAP_THRESHOLD_='))).toBe(false);
      if (onGlibc) expect(environmentOf(app.pid)).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=2', 'MALLOC_TRIM_THRESHOLD_=8388608']));
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('keeps a malloc setting the person chose', async () => {
    const app = await startAppProcess({ environment: { SMALL_HOST: 'yes', MALLOC_MMAP_THRESHOLD_: '131072' } });
    try {
      await waitForHealthy(app);
      expect(environmentOf(app.pid)).toContain('MALLOC_MMAP_THRESHOLD_=131072');
      expect(environmentOf(app.pid)).not.toContain('MALLOC_MMAP_THRESHOLD_=16384');
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('leaves glibc as it is with Postgres (no WebAssembly compiler to give memory back)', async () => {
    const database = await createThrowawayPostgres();
    const app = await startAppProcess({ environment: { SMALL_HOST: 'yes', DATABASE_URL: database.url } });
    try {
      await waitForHealthy(app);
      expect(environmentOf(app.pid).some((entry) => entry.startsWith('MALLOC_MMAP_THRESHOLD_='))).toBe(false);
    } finally {
      await app.stop();
      await database.drop();
    }
  }, 60_000);
});
