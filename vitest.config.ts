import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every temporary directory of a run under one, removed at its end.
    globalSetup: ['./tests/support/temporary-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (one fewer than the cores) is one fork on a 2-core machine, and most test time is spent
    // waiting on sockets, child processes and Chromium: two forks there took the suite from 1,087 s to 632 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files in one fork share its loaded modules instead of importing the app, discord.js and the Agents SDK
    // afresh for each of ~225 files: 209 s of the suite's time was spent importing. Each test builds its own app,
    // databases and fakes, so nothing a test sees is shared but the modules.
    isolate: false,
    // The closing reporter prints last: which suites this machine skipped, then a plain pass/fail line.
    reporters: ['default', './tests/support/closing-line-reporter.ts'],
    env: { LOG_LEVEL: 'silent' },
  },
});
