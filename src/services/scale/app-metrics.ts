/** The figures `/metrics` shows: turn latency, model errors, job queue and failures, sessions (owned here and overall). */
import type { Logger } from 'pino';
import type { MetricsRepository } from '../../repositories/metrics-repository.ts';
import type { Clock } from '../../core/clock.ts';
import { MetricsRegistry } from './metrics-registry.ts';
import type { TurnMetrics } from './measured-turn-runner.ts';
import type { CheckpointStats } from '../jobs/pglite-checkpoints.ts';
import type { LaneUse } from '../jobs/worker-lanes.ts';

/** Turn latency buckets (seconds): streaming answers take a few seconds, slow models a minute or more. */
export const TURN_LATENCY_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];

/** What the metrics read at scrape time. */
export interface AppMetricsSources {
  clock: Clock;
  logger: Logger;
  repository: MetricsRepository;
  /** Sessions whose lease this process holds. */
  ownedSessions: () => number;
  /** Model calls waiting for each endpoint's rate-limit budget, by endpoint host. */
  modelQueueDepths?: () => Array<{ endpoint: string; depth: number }>;
  /** The job worker's lanes in this process: jobs running in each, and its slots. */
  jobLanes?: () => LaneUse[];
  /** This process's memory (`process.memoryUsage`), read at scrape time. */
  memory?: () => Pick<NodeJS.MemoryUsage, 'rss' | 'heapTotal' | 'heapUsed' | 'external'>;
  /** The event loop's delay since the last scrape (a stalled loop delays every session's stream). */
  eventLoopDelay?: EventLoopDelaySource;
  /** How embedded PGlite's one connection was used so far (absent on Postgres). */
  databaseConnection?: () => DatabaseConnectionUse;
  /** Embedded PGlite's checkpoints (absent on Postgres, whose server checkpoints itself). */
  databaseCheckpoints?: () => CheckpointStats;
  /** Whether this process hears the other processes' notices now (Postgres; absent on PGlite). */
  noticesListening?: () => boolean;
}

/** Use of embedded PGlite's one connection since it opened: held seconds, and waits for it by priority. */
export interface DatabaseConnectionUse {
  busySeconds: number;
  inFlight: number;
  waits: Record<'turn' | 'background', { count: number; seconds: number }>;
}

/** Measures the event loop's delay until closed; `read` returns the window since the last read and starts a new one. */
export interface EventLoopDelaySource {
  read(): EventLoopDelay;
  close(): void;
}

/** Event-loop delay figures over one scrape interval, in seconds. */
export interface EventLoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** The app's metrics: in-process counters for turns, database reads for the shared queue and sessions. */
export interface AppMetrics {
  turns: TurnMetrics;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
  /** Stops what measures in the background (the event-loop delay), when the app stops. */
  close(): void;
}

/** The turn families (latency, model errors), registered first: the turn runner counts into them. */
export function createTurnMetrics(registry: MetricsRegistry, clock: Clock): TurnMetrics {
  const latency = registry.histogram(
    'brainstorm_turn_duration_seconds',
    'Time from a participant turn start to its outcome (answered, withheld, interrupted, failed), in this process.',
    TURN_LATENCY_BUCKETS,
  );
  const modelErrors = registry.counter(
    'brainstorm_model_errors_total',
    'Participant turns whose model failed after its retries, by endpoint host and model, in this process.',
  );
  return { clock, latency, modelErrors };
}

/**
 * Adds the families read at scrape time to `registry` (whose turn families `turns` counts into), in the order the
 * README's "Deployment" section lists them. Built once the ownership exists, so every source is there already.
 */
export function createAppMetrics(registry: MetricsRegistry, turns: TurnMetrics, sources: AppMetricsSources): AppMetrics {
  registry.collected('brainstorm_sessions_owned', 'Live sessions whose lease this process holds (their turns run here).', async () => [
    { labels: {}, value: sources.ownedSessions() },
  ]);
  const modelQueues = sources.modelQueueDepths;
  if (modelQueues) {
    registry.collected(
      'brainstorm_model_queue_depth',
      "Model calls waiting for their endpoint's rate-limit budget, by endpoint host, in this process.",
      async () => modelQueues().map((row) => ({ labels: { endpoint: row.endpoint }, value: row.depth })),
    );
  }
  registry.collected('brainstorm_job_queue_depth', 'Pending jobs in the shared outbox, by kind and whether they are due now or scheduled later.', async () =>
    (await sources.repository.queueDepth(sources.clock.now())).flatMap((row) => [
      { labels: { kind: row.kind, state: 'due' }, value: row.due },
      { labels: { kind: row.kind, state: 'scheduled' }, value: row.scheduled },
    ]),
  );
  const lanes = sources.jobLanes;
  if (lanes) registerLaneMetrics(registry, lanes);
  registry.collected(
    'brainstorm_job_failures_total',
    'Failed job attempts in the shared database, by kind and outcome (retry: tried again later; failed: given up).',
    async () => (await sources.repository.jobFailures()).map((row) => ({ labels: { kind: row.kind, outcome: row.outcome }, value: row.count })),
    'counter',
  );
  registry.collected('brainstorm_sessions', 'Sessions in the shared database by status.', async () =>
    (await sources.repository.sessionsByStatus()).map((row) => ({ labels: { status: row.status }, value: row.count })),
  );
  if (sources.memory) registerMemoryMetrics(registry, sources.memory);
  const listening = sources.noticesListening;
  if (listening)
    registry.collected(
      'brainstorm_notices_listening',
      "1 while this process hears the other processes' notices (Postgres LISTEN); 0 while it cannot: it then finds their messages at its poll.",
      async () => [{ labels: {}, value: listening() ? 1 : 0 }],
    );
  if (sources.databaseConnection) registerConnectionMetrics(registry, sources.databaseConnection);
  if (sources.databaseCheckpoints) registerCheckpointMetrics(registry, sources.databaseCheckpoints);
  const loopDelay = sources.eventLoopDelay;
  if (loopDelay) registerLoopMetrics(registry, () => loopDelay.read());
  return {
    turns,
    render: () => registry.render((name, error) => sources.logger.warn({ err: error, metric: name }, 'a metric could not be collected')),
    close: () => loopDelay?.close(),
  };
}

/** The job worker's lanes: a lane whose busy slots stay at its slots is where due jobs wait (see worker-lanes.ts). */
function registerLaneMetrics(registry: MetricsRegistry, lanes: NonNullable<AppMetricsSources['jobLanes']>): void {
  registry.collected('brainstorm_job_slots_busy', "Jobs running in this process's job worker, by lane (rooms, records, default).", async () =>
    lanes().map((row) => ({ labels: { lane: row.lane }, value: row.busy })),
  );
  registry.collected('brainstorm_job_slots', "Jobs this process's job worker runs at once at most, by lane.", async () =>
    lanes().map((row) => ({ labels: { lane: row.lane }, value: row.slots })),
  );
}

/** The process memory families under the names Prometheus's own client libraries use, so stock dashboards find them. */
function registerMemoryMetrics(registry: MetricsRegistry, memory: NonNullable<AppMetricsSources['memory']>): void {
  const families = [
    ['process_resident_memory_bytes', 'Resident memory of this process in bytes.', 'rss'],
    ['nodejs_heap_size_total_bytes', 'V8 heap reserved by this process in bytes.', 'heapTotal'],
    ['nodejs_heap_size_used_bytes', 'V8 heap in use by this process in bytes.', 'heapUsed'],
    ['nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript objects (buffers) in bytes.', 'external'],
  ] as const;
  for (const [name, help, field] of families) registry.collected(name, help, async () => [{ labels: {}, value: memory()[field] }]);
}

/**
 * Embedded PGlite's one connection: every statement of the process queues for it, so its busy share is how near the
 * process is to the most it can carry; waits show who queued (a turn's statements go before background ones).
 */
function registerConnectionMetrics(registry: MetricsRegistry, use: () => DatabaseConnectionUse): void {
  const byPriority = (read: (wait: { count: number; seconds: number }) => number) => async () =>
    Object.entries(use().waits).map(([priority, wait]) => ({ labels: { priority }, value: read(wait) }));
  registry.collected(
    'brainstorm_database_connection_busy_seconds_total',
    "Seconds in which embedded PGlite's one connection had a statement to run, in this process.",
    async () => [{ labels: {}, value: use().busySeconds }],
    'counter',
  );
  registry.collected('brainstorm_database_statements_in_flight', 'Statements sent to embedded PGlite and not yet answered (running or queued).', async () => [
    { labels: {}, value: use().inFlight },
  ]);
  registry.collected(
    'brainstorm_database_connection_waits_total',
    "Times a statement or transaction was let through to embedded PGlite's one connection, by priority (turn, background).",
    byPriority((wait) => wait.count),
    'counter',
  );
  registry.collected(
    'brainstorm_database_connection_wait_seconds_total',
    "Seconds statements waited to be let through to embedded PGlite's one connection, by priority (turn, background).",
    byPriority((wait) => wait.seconds),
    'counter',
  );
}

/** Embedded PGlite's checkpoints: a log that only grows means they stopped, and the data directory grows with it. */
function registerCheckpointMetrics(registry: MetricsRegistry, read: () => CheckpointStats): void {
  registry.collected(
    'brainstorm_database_checkpoints_total',
    'Checkpoints this process made of embedded PGlite (it has no checkpointer of its own).',
    async () => [{ labels: {}, value: read().checkpoints }],
    'counter',
  );
  registry.collected(
    'brainstorm_database_log_since_checkpoint_bytes',
    "Bytes of embedded PGlite's write-ahead log written since its last checkpoint, as housekeeping last read it (every minute).",
    async () => [{ labels: {}, value: read().logBytesSinceCheckpoint }],
  );
}

/**
 * The event-loop delay families. Families render in the order they were registered, so the p50 family reads the
 * scrape's window (which starts the next one) and the p99 and max families show the same window.
 */
function registerLoopMetrics(registry: MetricsRegistry, delay: () => EventLoopDelay): void {
  let window: EventLoopDelay = { p50: 0, p99: 0, max: 0 };
  registry.collected('nodejs_eventloop_lag_p50_seconds', 'Median event loop delay since the last scrape, in seconds.', async () => {
    window = delay();
    return [{ labels: {}, value: window.p50 }];
  });
  registry.collected('nodejs_eventloop_lag_p99_seconds', '99th percentile of the event loop delay since the last scrape, in seconds.', async () => [
    { labels: {}, value: window.p99 },
  ]);
  registry.collected('nodejs_eventloop_lag_max_seconds', 'Longest event loop delay since the last scrape, in seconds.', async () => [
    { labels: {}, value: window.max },
  ]);
}
