/** Runs one bench group in this process and prints its figures, one JSON object per line. */
import { runConsoleBench } from './console-bench.ts';
import { runDiscordBench } from './discord-bench.ts';
import { runModeratorBench } from './moderator-bench.ts';
import { runNotionBench } from './notion-bench.ts';
import { runMemoryBench, runMemoryPostgresBench, runSessionBench, type BenchResult } from './session-bench.ts';

/** The groups of `npm run bench`, each run in a fresh process. */
export const BENCH_GROUPS: Record<string, () => Promise<BenchResult[]>> = {
  session: runSessionBench,
  memory: runMemoryBench,
  'memory-postgres': runMemoryPostgresBench,
  discord: runDiscordBench,
  notion: runNotionBench,
  moderator: runModeratorBench,
  console: runConsoleBench,
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
  process.stdout.write(`${JSON.stringify({ name: `${name}_error`, value: 0, unit: 'error', message: error instanceof Error ? error.message : String(error) })}\n`);
  process.exit(1);
}
