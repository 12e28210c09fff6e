import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The closing reporter prints last: which suites this machine skipped, then a plain pass/fail line.
    reporters: ['default', './tests/support/closing-line-reporter.ts'],
    env: { LOG_LEVEL: 'silent' },
  },
});
