/**
 * Dependency rules that run in CI (`npm run lint`). ESLint checks the layer arrows of DESIGN.md; this checks
 * that no module imports itself through a cycle, type imports included, so the wiring stays readable one way.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle between files: move the shared types or functions into a file both can import (often src/core).',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'no-orphans-in-services',
      severity: 'error',
      comment: 'A service file nothing imports is dead code.',
      from: { orphan: true, path: '^src/services' },
      to: {},
    },
    {
      name: 'bench-without-vitest',
      severity: 'error',
      comment:
        '`npm run bench` runs outside vitest, where importing vitest throws ("Vitest failed to access its internal state") and the bench prints that group as an error: keep vitest hooks out of what bench/ reaches (a suite helper of their own).',
      from: { path: '^bench' },
      to: { path: '^node_modules/vitest/', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
