import { runDiscordBench } from '/work/main/bench/discord-bench.ts';
const started = Date.now();
console.log(JSON.stringify(await runDiscordBench()), Date.now() - started, 'ms');
process.exit(0);
