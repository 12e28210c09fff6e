/**
 * What a turn costs besides the model: statements sent to the database per person's message and per model answer
 * (deterministic, unlike wall time on a shared machine), and the overhead and event-loop lag with 500 live sessions.
 */
import { QueryCounter } from '../src/db/query-counter.ts';
import { measureEventLoopDelay } from '../src/services/scale/event-loop-delay.ts';
import {
  activeSession,
  activeSessions,
  asStartRunsIt,
  participantMessages,
  percentile,
  round,
  say,
  startBenchApp,
  startRemoteModelsBenchApp,
  stopBenchApp,
  type BenchEngine,
  type BenchRun,
  type RemoteModelsBenchApp,
  type BenchResult,
} from './bench-app.ts';

/** Turns the statement counts are averaged over. */
const COUNTED_TURNS = 20;
/** Live sessions of the load run, the model latency there, and the window each wave of people's messages spreads over. */
const LOAD = { sessions: Number(process.env.BENCH_LOAD_SESSIONS ?? 500), modelLatencyMs: 2000, waveMs: 10_000, waves: 2 } as const;
/**
 * How long the run with the roles on goes on making waves, from its first measured one: longer than a busy session
 * waits for its Scribe pass (debounced, at most 3 intervals of 60 s by default), so every session's Scribe pass, its
 * idea ledger passes (once a minute) and its Moderator checks (every 10 messages) fall among the measured turns. The
 * TLDR (every 10 minutes) does not.
 */
const ROLES_RUN_MS = 200_000;
/**
 * The load run's fake models answer from a process of their own, as real models answer from another machine: in this
 * one, serving 1,500 streams took the same event loop the figures measure. BENCH_LOAD_MODELS_IN_PROCESS=1 measures the
 * old way (figures suffixed `_models_in_process`), to compare with the figures taken before.
 */
const MODELS_IN_PROCESS = Boolean(process.env.BENCH_LOAD_MODELS_IN_PROCESS);

const progress = (text: string) => {
  if (process.env.BENCH_VERBOSE) process.stderr.write(`${new Date().toISOString()} ${text}\n`);
};
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Resolves when `count` participant messages of the session were delivered to the room. */
function deliveredAnswers(bench: BenchRun, sessionId: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const stop = bench.app.events.subscribe((event) => {
      if (event.type !== 'message' || event.message.sessionId !== sessionId) return;
      if (event.message.speaker.kind !== 'participant' || event.message.deliveryStatus !== 'delivered') return;
      seen += 1;
      if (seen < count) return;
      stop();
      resolve();
    });
  });
}

/** Where a loaded turn's time went, in milliseconds beyond the model's own. */
interface TurnPhases {
  /** The whole turn: the person's message until the third answer is stored. */
  overhead: number;
  /** The person's message until it is stored (what every later step waits behind). */
  intake: number;
  /** Stored until the first answer is stored (history read, three runs prepared, the model, the answer's insert). */
  toFirstAnswer: number;
  /** The first answer stored until the third (answers that came at once, handled one after another). */
  answersSpread: number;
  /** As `overhead`, until the third answer was delivered to the room: what people wait for (the outbox's delay too). */
  shownOverhead: number;
}

/**
 * A turn's phases, once all three participants answered a person's message; null when the round ended with fewer (a
 * model failed or timed out under the load: counted apart, never as a fast turn).
 */
async function answeredTurn(bench: BenchRun, session: { sessionId: string; roomId: string }): Promise<TurnPhases | null> {
  const started = performance.now();
  let storedAt = 0;
  let firstAnswerAt = 0;
  // This turn's answers (the first three stored after the person spoke), and which of them reached the room.
  const answerIds = new Set<number>();
  const shown = new Set<number>();
  let allShown: () => void = () => undefined;
  const seen = new Promise<number>((resolve) => (allShown = () => resolve(performance.now())));
  const stop = bench.app.events.subscribe((event) => {
    if (event.type !== 'message' || event.message.sessionId !== session.sessionId) return;
    const { speaker, deliveryStatus, id } = event.message;
    if (speaker.kind === 'human' && storedAt === 0) storedAt = performance.now();
    if (speaker.kind !== 'participant') return;
    if (deliveryStatus === 'pending' && answerIds.size < 3) answerIds.add(id);
    if (deliveryStatus === 'pending' && firstAnswerAt === 0) firstAnswerAt = performance.now();
    if (deliveryStatus === 'delivered' && answerIds.has(id)) shown.add(id);
    if (shown.size === 3) allShown();
  });
  const answered = participantMessages(bench.app, session.sessionId, 3).then(() => performance.now());
  try {
    await say(bench, session);
    const roundOver = bench.app.services.coordinator.idle(session.sessionId).then(() => null);
    const thirdAnswerAt = await Promise.race([answered, roundOver.then(() => Promise.race([answered, sleep(0).then(() => null)]))]);
    if (thirdAnswerAt === null) return null;
    return {
      overhead: thirdAnswerAt - started - LOAD.modelLatencyMs,
      intake: storedAt - started,
      toFirstAnswer: firstAnswerAt - storedAt - LOAD.modelLatencyMs,
      answersSpread: thirdAnswerAt - firstAnswerAt,
      shownOverhead: (await seen) - started - LOAD.modelLatencyMs,
    };
  } finally {
    stop();
  }
}

/** The model calls served so far by the role that asked (the model process counts them; none in process). */
function roleCalls(bench: BenchRun | RemoteModelsBenchApp): Promise<Record<string, number>> {
  return 'models' in bench ? bench.models.requestsByRole() : Promise.resolve({});
}

/** The roles' calls between two counts, so a run with the roles on shows how much of their work fell among its turns. */
function callsSince(before: Record<string, number>, after: Record<string, number>): [string, number][] {
  return ['moderator', 'scribe', 'ideas', 'tldr'].map((role) => [role, (after[role] ?? 0) - (before[role] ?? 0)]);
}

/** Statements per millisecond the idle app sends (lease renewals, polls), subtracted from what a turn is charged. */
async function backgroundRate(counter: QueryCounter): Promise<number> {
  counter.reset();
  const started = performance.now();
  await sleep(3000);
  return counter.total() / (performance.now() - started);
}

/** A person's message answered by three participants, settled: answers delivered and the round over. */
async function settledTurn(bench: BenchRun, session: { sessionId: string; roomId: string }): Promise<void> {
  const delivered = deliveredAnswers(bench, session.sessionId, 3);
  await say(bench, session);
  await delivered;
  await bench.app.services.coordinator.idle(session.sessionId);
}

/** Statements of a whole person-led turn (their message and three answers) on a fresh app. */
async function perHumanTurn(engine: BenchEngine): Promise<number> {
  const counter = new QueryCounter();
  const bench = await startBenchApp(0, engine, 0, { counter, workerPollMs: 60_000 });
  try {
    const session = await activeSession(bench);
    for (let warm = 0; warm < 3; warm += 1) await settledTurn(bench, session);
    const background = await backgroundRate(counter);
    counter.reset();
    const started = performance.now();
    for (let turn = 0; turn < COUNTED_TURNS; turn += 1) await settledTurn(bench, session);
    const statements = counter.total() - background * (performance.now() - started);
    if (process.env.BENCH_VERBOSE) process.stderr.write(`${engine} human turn statements:\n${JSON.stringify(counter.top(40), null, 1)}\n`);
    return statements / COUNTED_TURNS;
  } finally {
    await stopBenchApp(bench);
  }
}

/** Statements per model answer in AI-to-AI rounds (no person involved), on a fresh app. */
async function perAiTurn(engine: BenchEngine): Promise<number> {
  const counter = new QueryCounter();
  const bench = await startBenchApp(0, engine, 1000, { counter, workerPollMs: 60_000 });
  try {
    const background = await backgroundRate(counter);
    const warmed = new Promise<void>((resolve) => {
      let answers = 0;
      const stop = bench.app.events.subscribe((event) => {
        if (event.type !== 'message' || event.message.speaker.kind !== 'participant' || event.message.deliveryStatus !== 'delivered') return;
        answers += 1;
        if (answers === 9) {
          counter.reset();
          started = performance.now();
        }
        if (answers < 9 + COUNTED_TURNS * 3) return;
        statements = counter.total();
        elapsed = performance.now() - started;
        stop();
        resolve();
      });
    });
    let started = 0;
    let statements = 0;
    let elapsed = 0;
    await activeSession(bench);
    await warmed;
    if (process.env.BENCH_VERBOSE) process.stderr.write(`${engine} AI turn statements:\n${JSON.stringify(counter.top(40), null, 1)}\n`);
    return (statements - background * elapsed) / (COUNTED_TURNS * 3);
  } finally {
    await stopBenchApp(bench);
  }
}

/** queries_per_ai_turn, and queries_per_human_message: what a person's message adds to the three answers it gets. */
async function queryCounts(engine: BenchEngine): Promise<BenchResult[]> {
  const suffix = engine === 'postgres' ? '_postgres' : '';
  const aiTurn = await perAiTurn(engine);
  const humanTurn = await perHumanTurn(engine);
  return [
    { name: `queries_per_human_message${suffix}`, value: round(humanTurn - 3 * aiTurn, 1), unit: 'statements' },
    { name: `queries_per_ai_turn${suffix}`, value: round(aiTurn, 1), unit: 'statements' },
  ];
}

/**
 * sessions_500_turn_overhead_ms_p99: 500 live sessions (or BENCH_LOAD_SESSIONS) whose models take 2 s; after a
 * warm-up turn in each, in every wave a person speaks once in every session, at a random moment of a 10 s window. A
 * turn's overhead is its wall time beyond the model's 2 s. event_loop_lag_ms_p99 is the event loop's delay meanwhile,
 * sampled every 10 ms and read as `/metrics` reads it: beyond the sampling period (an idle loop reads 0, not 10).
 */
async function loadRun(engine: 'pglite' | 'postgres', rolesOn = false): Promise<BenchResult[]> {
  const suffix = `${engine === 'postgres' ? '_postgres' : ''}${MODELS_IN_PROCESS ? '_models_in_process' : ''}${rolesOn ? '_roles_on' : ''}`;
  // Another number of sessions (BENCH_LOAD_SESSIONS) is named so: its figures are not the 500-session ones.
  const prefix = `sessions_${LOAD.sessions}`;
  const lagSuffix = LOAD.sessions === 500 ? suffix : `${suffix}_${prefix}`;
  // As `npm start` runs: one PGlite in a DATA_DIR, the job worker's default poll (deliveries wake it anyway).
  const appEngine = asStartRunsIt(engine);
  const bench = MODELS_IN_PROCESS
    ? await startBenchApp(LOAD.modelLatencyMs, appEngine, 0, { rolesOn })
    : await startRemoteModelsBenchApp(LOAD.modelLatencyMs, appEngine, { rolesOn });
  try {
    const sessions = await activeSessions(bench, LOAD.sessions, 'Load');
    progress(`${LOAD.sessions} sessions active`);
    // A first turn takes the session's lease and builds the tokenizer: one unmeasured wave warms every session.
    await Promise.all(sessions.map((session) => answeredTurn(bench, session)));
    await bench.app.services.coordinator.idle();
    progress(`${LOAD.sessions} sessions active and warm`);
    const callsBefore = await roleCalls(bench);
    const sampler = process.env.BENCH_VERBOSE
      ? setInterval(() => {
          void bench.app.repositories.metrics.queueDepth(new Date()).then((depth) => progress(`queue ${JSON.stringify(depth.filter((row) => row.due > 0))}`));
        }, 10_000)
      : null;
    const lag = measureEventLoopDelay({ resolutionMs: 10 });
    const turns: TurnPhases[] = [];
    let unanswered = 0;
    const measuredFrom = performance.now();
    const moreWaves = (wave: number) => (rolesOn ? performance.now() - measuredFrom < ROLES_RUN_MS : wave < LOAD.waves);
    for (let wave = 0; moreWaves(wave); wave += 1) {
      await Promise.all(
        sessions.map(async (session) => {
          await sleep(Math.random() * LOAD.waveMs);
          const phases = await answeredTurn(bench, session);
          if (phases === null) unanswered += 1;
          else turns.push(phases);
        }),
      );
      await bench.app.services.coordinator.idle();
      progress(`wave ${wave + 1} over`);
    }
    const loopDelay = lag.read();
    lag.close();
    if (sampler) clearInterval(sampler);
    const callsDuring = rolesOn ? callsSince(callsBefore, await roleCalls(bench)) : [];
    const valuesOf = (phase: keyof TurnPhases) => turns.map((turn) => turn[phase]);
    const p99 = (phase: keyof TurnPhases) => round(percentile(valuesOf(phase), 0.99), 1);
    return [
      { name: `${prefix}_turn_overhead_ms_p50${suffix}`, value: round(percentile(valuesOf('overhead'), 0.5), 1), unit: 'ms' },
      { name: `${prefix}_turn_overhead_ms_p99${suffix}`, value: p99('overhead'), unit: 'ms' },
      { name: `${prefix}_intake_ms_p99${suffix}`, value: p99('intake'), unit: 'ms' },
      { name: `${prefix}_to_first_answer_overhead_ms_p99${suffix}`, value: p99('toFirstAnswer'), unit: 'ms' },
      { name: `${prefix}_answers_spread_ms_p99${suffix}`, value: p99('answersSpread'), unit: 'ms' },
      { name: `${prefix}_turn_shown_overhead_ms_p50${suffix}`, value: round(percentile(valuesOf('shownOverhead'), 0.5), 1), unit: 'ms' },
      { name: `${prefix}_turn_shown_overhead_ms_p99${suffix}`, value: p99('shownOverhead'), unit: 'ms' },
      { name: `event_loop_lag_ms_p99${lagSuffix}`, value: round(loopDelay.p99 * 1000, 1), unit: 'ms' },
      { name: `${prefix}_unanswered_turns${suffix}`, value: unanswered, unit: 'turns' },
      ...callsDuring.map(([role, calls]) => ({ name: `${prefix}_${role}_model_calls${suffix}`, value: calls, unit: 'calls' })),
    ];
  } finally {
    await stopBenchApp(bench);
  }
}

/** The load figures on embedded PGlite (BENCH_LOAD_ONLY=1 skips the statement counts). */
export async function runLoadBench(): Promise<BenchResult[]> {
  return [...(process.env.BENCH_LOAD_ONLY ? [] : await queryCounts('pglite')), ...(await loadRun('pglite'))];
}

/** The load figures on the Postgres server (BENCH_LOAD_ONLY=1 skips the statement counts). */
export async function runLoadPostgresBench(): Promise<BenchResult[]> {
  return [...(process.env.BENCH_LOAD_ONLY ? [] : await queryCounts('postgres')), ...(await loadRun('postgres'))];
}

/**
 * The load run with the Moderator's checks, the Scribe, its idea ledger and the TLDR at their defaults, as a team runs
 * the bot: the honest capacity figure (the others measure the turns alone). Figures suffixed `_roles_on`.
 */
export async function runLoadRolesBench(engine: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  return loadRun(engine, true);
}

/** Only the statement counts, both engines (quick: `npm run bench -- queries`). */
export async function runQueryCountBench(): Promise<BenchResult[]> {
  return [...(await queryCounts('pglite')), ...(await queryCounts('postgres'))];
}
