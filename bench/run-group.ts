/** Runs one bench group in this process and prints its figures, one JSON object per line. */
import type { BenchResult } from './bench-app.ts';

/** The groups of `npm run bench`, each run in a fresh process. */
export const BENCH_GROUPS: Record<string, () => Promise<BenchResult[]>> = {
  // Loaded on demand: one group's imports (e.g. test helpers) cannot break another group.
  machine: async () => (await import('./machine-bench.ts')).runMachineBench(),
  session: async () => [
    ...(await (await import('./session-bench.ts')).runSessionBench()),
    ...(await (await import('./second-person-bench.ts')).secondPerson()),
  ],
  memory: async () => (await import('./app-memory-bench.ts')).runAppMemoryBench(),
  'memory-postgres': async () => (await import('./app-memory-bench.ts')).runAppMemoryPostgresBench(),
  'memory-in-process': async () => (await import('./session-bench.ts')).runMemoryBench(),
  'memory-postgres-in-process': async () => (await import('./session-bench.ts')).runMemoryPostgresBench(),
  discord: async () => (await import('./discord-bench.ts')).runDiscordBench(),
  notion: async () => (await import('./notion-bench.ts')).runNotionBench(),
  moderator: async () => [
    ...(await (await import('./moderator-bench.ts')).runModeratorBench()),
    ...(await (await import('./person-during-check-bench.ts')).personDuringCheck()),
  ],
  console: async () => (await import('./console-bench.ts')).runConsoleBench(),
  ideas: async () => (await import('./ideas-bench.ts')).runIdeasBench(),
  scale: async () => (await import('./scale-bench.ts')).runScaleBench(),
  queries: async () => (await import('./load-bench.ts')).runQueryCountBench(),
  load: async () => (await import('./load-bench.ts')).runLoadBench(),
  'load-postgres': async () => (await import('./load-bench.ts')).runLoadPostgresBench(),
  'load-roles': async () => (await import('./load-bench.ts')).runLoadRolesBench('pglite'),
  'load-roles-postgres': async () => (await import('./load-bench.ts')).runLoadRolesBench('postgres'),
};

const name = process.argv[2] ?? '';
const run = BENCH_GROUPS[name];
if (!run) {
  process.stderr.write(`unknown bench group "${name}"; known: ${Object.keys(BENCH_GROUPS).join(', ')}\n`);
  process.exit(2);
}
try {
  for (const result of await run()) process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ name: `${name}_error`, value: 0, unit: 'error', message: error instanceof Error ? error.message : String(error) })}\n`,
  );
  process.exit(1);
}
