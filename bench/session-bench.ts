import { replies, type FakeOpenRouter } from '../tests/fakes/openrouter/fake-openrouter.ts';
import {
  activeSession,
  activeSessions,
  asStartRunsIt,
  say,
  nextExternalId,
  percentile,
  round,
  startBenchApp,
  startRemoteModelsBenchApp,
  stopBenchApp,
  timedTurn,
  type BenchApp,
  type BenchResult,
} from './bench-app.ts';
import { sdkFloor } from './sdk-floor-bench.ts';
import { mainThreadCpuMs, ownCpuMs, postgresCpuSince, postgresCpuSnapshot, type PostgresCpuSnapshot } from './process-cpu.ts';

export type { BenchResult } from './bench-app.ts';

/**
 * Turns measured by the overhead figures, after five to warm up. 200, so that the p99 is the 99th percentile (the
 * second slowest turn) rather than the slowest of 60, which moved 25-92 ms between runs of unchanged code.
 */
const TURNS = 200;

/** turn_fanout_ratio: wall time of a 3-participant turn over the 400 ms one model takes (models in a process of their own). */
async function fanout(engine: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const bench = await startRemoteModelsBenchApp(400, asStartRunsIt(engine));
  try {
    const session = await activeSession(bench);
    const ratios: number[] = [];
    for (let turn = 0; turn < 9; turn += 1) ratios.push((await timedTurn(bench, session)) / 400);
    return [{ name: engine === 'postgres' ? 'turn_fanout_ratio_postgres' : 'turn_fanout_ratio', value: round(percentile(ratios, 0.5), 3), unit: 'ratio' }];
  } finally {
    await stopBenchApp(bench);
  }
}

/**
 * turn_overhead_ms: a whole 3-participant turn when the models answer at once. The models run in a process of their
 * own, as real models run elsewhere; `inProcess` keeps them in this one (the figure measured before, `_models_in_process`).
 * With the models elsewhere it also prints what the turns cost in CPU: `turn_cpu_ms` for this process (the app, with
 * PGlite's database work when that is the engine, and the bench's own small part), `turn_main_thread_cpu_ms` for the
 * thread our code runs on, and `turn_postgres_cpu_ms` for the Postgres server, where /proc shows them.
 */
async function overhead(engine: 'pglite' | 'postgres', inProcess = false): Promise<BenchResult[]> {
  const bench = inProcess ? await startBenchApp(0, asStartRunsIt(engine)) : await startRemoteModelsBenchApp(0, asStartRunsIt(engine));
  const suffix = `${engine === 'postgres' ? '_postgres' : ''}${inProcess ? '_models_in_process' : ''}`;
  try {
    const session = await activeSession(bench);
    for (let warm = 0; warm < 5; warm += 1) await timedTurn(bench, session);
    const times: number[] = [];
    const cpuBefore = { own: ownCpuMs(), mainThread: mainThreadCpuMs(), postgres: engine === 'postgres' ? postgresCpuSnapshot() : null };
    for (let turn = 0; turn < TURNS; turn += 1) times.push(await timedTurn(bench, session));
    return [
      { name: `turn_overhead_ms_p50${suffix}`, value: round(percentile(times, 0.5), 1), unit: 'ms' },
      { name: `turn_overhead_ms_p99${suffix}`, value: round(percentile(times, 0.99), 1), unit: 'ms' },
      ...(inProcess ? [] : cpuFigures(engine, cpuBefore)),
    ];
  } finally {
    await stopBenchApp(bench);
  }
}

/** The CPU the measured turns cost, per turn: this process's, and the Postgres server's when it could be read. */
function cpuFigures(engine: 'pglite' | 'postgres', before: { own: number; mainThread: number | null; postgres: PostgresCpuSnapshot | null }): BenchResult[] {
  const suffix = engine === 'postgres' ? '_postgres' : '';
  const results: BenchResult[] = [{ name: `turn_cpu_ms${suffix}`, value: round((ownCpuMs() - before.own) / TURNS, 1), unit: 'ms' }];
  const mainThread = mainThreadCpuMs();
  if (before.mainThread !== null && mainThread !== null) {
    results.push({ name: `turn_main_thread_cpu_ms${suffix}`, value: round((mainThread - before.mainThread) / TURNS, 1), unit: 'ms' });
  }
  const postgres = before.postgres ? postgresCpuSince(before.postgres) : null;
  if (postgres !== null) results.push({ name: 'turn_postgres_cpu_ms', value: round(postgres / TURNS, 1), unit: 'ms' });
  return results;
}

/** prompt_tokens_growth: a participant's prompt at message 300 over its prompt at message 60. */
async function promptGrowth(): Promise<BenchResult[]> {
  const bench = await startBenchApp(0);
  try {
    const { sessionId } = await activeSession(bench);
    const { messages, documents, sessions } = bench.app.repositories;
    const speakers = ['Claude', 'ChatGPT', 'Grok'];
    const measure = async () => {
      const session = (await sessions.findById(sessionId))!;
      return (await bench.app.services.context.build(session, 'Claude', 'anthropic/claude-sonnet-4', [])).estimatedTokens;
    };
    const seedUpTo = async (count: number) => {
      for (let index = (await messages.listForSession(sessionId)).length; index < count; index += 1) {
        const name = speakers[index % 3]!;
        const text = `${name} point ${index}: we should weigh rollout safety against delivery speed, because flags add operational cost but reduce the blast radius of a bad deploy; a kill switch per risky path and a cleanup policy keep the debt small.`;
        await messages.insert({ sessionId, speaker: { kind: 'participant', name }, role: 'assistant', text, deliveryStatus: 'delivered' }, new Date());
      }
      const record = Array.from(
        { length: Math.ceil(count / 6) },
        (_, index) => `- Point ${index}: participants weighed rollout safety against speed and agreed on kill switches for risky paths.`,
      ).join('\n');
      await documents.write(sessionId, 'record', `# Record\n${record}`, {}, new Date());
    };
    await seedUpTo(60);
    const at60 = await measure();
    await seedUpTo(300);
    const at300 = await measure();
    return [{ name: 'prompt_tokens_growth', value: round(at300 / at60, 3), unit: 'ratio' }];
  } finally {
    await stopBenchApp(bench);
  }
}

/**
 * rss_mb_100_sessions_bench_process: resident memory of this bench process (the app, the fake models, the TypeScript
 * loader and the bench's bookkeeping) with 100 active sessions each running a turn at once. The app's own figure is
 * `rss_mb_100_sessions` (app-memory-bench.ts); this one is kept to compare with the figures measured before it.
 */
async function memory(engine: 'pglite-single' | 'postgres'): Promise<BenchResult[]> {
  const bench = await startBenchApp(50, engine);
  try {
    const sessions = await activeSessions(bench, 100, 'Memory');
    await Promise.all(sessions.map((session) => timedTurn(bench, session)));
    globalThis.gc?.();
    const name = engine === 'postgres' ? 'rss_mb_100_sessions_postgres_bench_process' : 'rss_mb_100_sessions_bench_process';
    return [{ name, value: round(process.memoryUsage().rss / 1024 / 1024, 1), unit: 'MB' }];
  } finally {
    await stopBenchApp(bench);
  }
}

/** How long the idle figure watches a quiet app. */
const IDLE_MS = 10_000;
/**
 * How long a room falls quiet before the idle figure starts watching. In the first ~10 s after activity stops V8's
 * memory reducer runs its major collections (86 ms of GC in a profile of that window, nothing of ours): measured from
 * 2 s, the figure read 11-14 ms/s for the first app in a process and 3-5 for a later one, whose heap had settled.
 */
const QUIET_SETTLE_MS = 15_000;

/**
 * idle_main_thread_cpu_ms_per_s: what a quiet app costs the thread our code runs on, per second, a session live and
 * nobody speaking (the job worker's and the session leases' polls, the event-loop delay sampling): a host's bill
 * between turns, and what a turn whose model thinks for seconds carries besides its own work.
 */
async function idle(engine: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const bench = await startRemoteModelsBenchApp(0, asStartRunsIt(engine));
  try {
    const session = await activeSession(bench);
    for (let turn = 0; turn < 3; turn += 1) await timedTurn(bench, session);
    await new Promise((resolve) => setTimeout(resolve, QUIET_SETTLE_MS));
    const before = mainThreadCpuMs();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const after = mainThreadCpuMs();
    if (before === null || after === null) return [];
    const name = engine === 'postgres' ? 'idle_main_thread_cpu_ms_per_s_postgres' : 'idle_main_thread_cpu_ms_per_s';
    return [{ name, value: round((after - before) / (IDLE_MS / 1000), 1), unit: 'ms/s' }];
  } finally {
    await stopBenchApp(bench);
  }
}

const HUMAN_ROUND_LATENCIES = { Claude: 400, ChatGPT: 1500, Grok: 3000 } as const;
const participantRequests = (fake: FakeOpenRouter) => fake.chats.filter((chat) => chat.agent.role === 'participant').length;

/**
 * Watches the answers to a person's message saying `text`: `first` resolves with the time of the first one, `all`
 * with the participant request count when every participant has answered (so the next requests are a new round).
 */
function answersTo(bench: BenchApp, sessionId: string, text: string): { first: Promise<number>; all: Promise<number> } {
  let personMessageId: number | null = null;
  let answers = 0;
  let resolveFirst: (time: number) => void = () => undefined;
  let resolveAll: (requests: number) => void = () => undefined;
  const first = new Promise<number>((resolve) => (resolveFirst = resolve));
  const all = new Promise<number>((resolve) => (resolveAll = resolve));
  const stop = bench.app.events.subscribe((event) => {
    if (event.type !== 'message' || event.message.sessionId !== sessionId || event.message.deliveryStatus === 'delivered') return;
    if (event.message.speaker.kind === 'human' && event.message.text === text) personMessageId = event.message.id;
    if (event.message.speaker.kind !== 'participant' || personMessageId === null || !event.message.replyTo.includes(personMessageId)) return;
    answers += 1;
    if (answers === 1) resolveFirst(performance.now());
    if (answers < Object.keys(HUMAN_ROUND_LATENCIES).length) return;
    stop();
    resolveAll(participantRequests(bench.fake));
  });
  return { first, all };
}

/**
 * human_during_round_first_visible_ms: a person speaks 700 ms into an AI round whose models take 400, 1500 and
 * 3000 ms; the time until the first answer to them is visible (idle room: about one fast model's latency).
 */
async function humanDuringRound(): Promise<BenchResult[]> {
  const bench = await startBenchApp(0, 'pglite', 1000);
  try {
    for (const [name, latencyMs] of Object.entries(HUMAN_ROUND_LATENCIES)) {
      bench.fake.script(
        { participant: name },
        ...Array.from({ length: 60 }, (_, index) => replies.text(`${name} point ${index}.`, { timing: { latencyMs, firstTokenMs: 0 } })),
      );
    }
    const session = await activeSession(bench);
    const times: number[] = [];
    let before = participantRequests(bench.fake);
    for (let sample = 0; sample < 5; sample += 1) {
      // With no person speaking, the next three participant requests are an AI round: speak 700 ms into it.
      while (participantRequests(bench.fake) < before + 3) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 700));
      const text = `Quick question ${nextExternalId()}: what is the cheapest first step?`;
      const answers = answersTo(bench, session.sessionId, text);
      const started = performance.now();
      await say(bench, session, text);
      times.push((await answers.first) - started);
      before = await answers.all;
    }
    return [{ name: 'human_during_round_first_visible_ms', value: round(percentile(times, 0.5), 1), unit: 'ms' }];
  } finally {
    await stopBenchApp(bench);
  }
}

/** The session figures of `npm run bench`. */
export async function runSessionBench(): Promise<BenchResult[]> {
  const overheads = [...(await overhead('pglite')), ...(await overhead('postgres'))];
  const floor = await sdkFloor();
  return [
    ...(await fanout('pglite')),
    ...(await fanout('postgres')),
    ...overheads,
    ...floor,
    ...ownShare(overheads, floor),
    ...(await overhead('pglite', true)),
    ...(await overhead('postgres', true)),
    ...(await idle('pglite')),
    ...(await idle('postgres')),
    ...(await promptGrowth()),
    ...(await humanDuringRound()),
  ];
}

/**
 * turn_overhead_own_ms_p50: what our code adds to a turn's median beyond the Agents SDK's own floor (the overhead
 * figure's p50 minus `turn_sdk_floor_ms_p50`), on each engine.
 */
function ownShare(overheads: BenchResult[], floor: BenchResult[]): BenchResult[] {
  const floorP50 = floor.find((result) => result.name === 'turn_sdk_floor_ms_p50')?.value;
  if (floorP50 === undefined) return [];
  return (['', '_postgres'] as const).flatMap((suffix) => {
    const p50 = overheads.find((result) => result.name === `turn_overhead_ms_p50${suffix}`)?.value;
    return p50 === undefined ? [] : [{ name: `turn_overhead_own_ms_p50${suffix}`, value: round(p50 - floorP50, 1), unit: 'ms' }];
  });
}

/** rss_mb_100_sessions_bench_process with embedded PGlite in a DATA_DIR (as `npm start` runs it). */
export async function runMemoryBench(): Promise<BenchResult[]> {
  return memory('pglite-single');
}

/** rss_mb_100_sessions_postgres_bench_process: the same with the database on a Postgres server. */
export async function runMemoryPostgresBench(): Promise<BenchResult[]> {
  return memory('postgres');
}
