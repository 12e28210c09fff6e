import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (one fewer than the cores) is one fork on a 2-core machine, and most test time is spent
    // waiting on sockets, child processes and Chromium: two forks there took the suite from 1,087 s to 632 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The closing reporter prints last: which suites this machine skipped, then a plain pass/fail line.
    reporters: ['default', './tests/support/closing-line-reporter.ts'],
    env: { LOG_LEVEL: 'silent' },
  },
});
