import { Runner } from '@openai/agents';
import type { AppConfig } from './config/app-config.ts';
import { collectSecrets } from './config/load-config.ts';
import { databaseLocationFor, openDatabase, type DatabaseHandle, type DatabaseLocation } from './db/create-database.ts';
import { migrateWhenReachable } from './db/database-wait.ts';
import { createLogger, type Logger } from './logging/logger.ts';
import { ModelCatalog } from './agents/models/model-catalog.ts';
import { PromptLibrary } from './agents/prompts/prompt-library.ts';
import { READABLE_PACE, startSimulator, type SimulatorHandle } from './simulator/index.ts';
import { DbTracingProcessor, type GenerationUsage } from './tracing/db-tracing-processor.ts';
import { installTracing } from './tracing/install-tracing.ts';
import { OtlpTracingProcessor } from './tracing/index.ts';
import type { TracingProcessor } from '@openai/agents';
import { TracesRepository } from './repositories/traces-repository.ts';
import { systemClock, type Clock } from './core/clock.ts';
import { randomIds, type IdGenerator } from './core/ids.ts';
import { InMemoryEventBus } from './core/event-bus.ts';
import { JobWorker } from './services/jobs/job-worker.ts';
import { LiveProcesses } from './services/jobs/live-processes.ts';
import type { EventBus, SessionGateway, Transport } from './core/ports.ts';
import { TransportRegistry } from './services/delivery/transport-registry.ts';
import { buildServices, type Services } from './composition/build-services.ts';
import { createAdminNotifier, createTerminalFailureNotifier } from './services/notifications/admin-notifier.ts';
import { buildRepositories, type Repositories } from './composition/build-repositories.ts';
import { JOB_LANES } from './composition/job-lanes.ts';

/** How to build the application; everything but `config` has a production default. */
export interface AppOptions {
  config: AppConfig;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** 'memory' = PGlite in memory; an open handle (tests); default from the config (DATABASE_URL or PGlite under DATA_DIR). */
  database?: 'memory' | DatabaseLocation | DatabaseHandle;
  /** Transports built by the caller (tests: the in-memory transport). */
  transports?: Transport[];
  /** Poll the job outbox in the background (default true; tests on a ManualClock call `worker.runDue()`). */
  runWorker?: boolean;
  workerPollMs?: number;
  /** Start the demo simulator when no model key is set (default true). */
  demoSimulator?: boolean;
}

/** The running application. */
export interface App {
  config: AppConfig;
  gateway: SessionGateway;
  worker: JobWorker;
  /** The live processes of this installation, as their job workers' heartbeats say. */
  liveProcesses: LiveProcesses;
  events: EventBus;
  services: Services;
  repositories: Repositories;
  transports: TransportRegistry;
  logger: Logger;
  clock: Clock;
  /** The simulator's URL in demo mode. */
  simulatorUrl: string | null;
  /** True once the database is migrated and every transport is up. */
  ready(): boolean;
  /**
   * Starts the worker and resumes the sessions a stop or a crash left (`resume: false` leaves that to `resume()`, for
   * a transport that reads back first what was said while no process ran: a `!stop` said then must win).
   */
  start(options?: { resume?: boolean }): Promise<void>;
  /**
   * Calls `listener` each time this process declares others gone (a crash, a kill): a transport reads back what they
   * took and never handled.
   */
  whenProcessesGone(listener: () => void): void;
  /** Resumes the sessions a stop or a crash left, and starts sharing them with other processes; ready after it. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** The composition root: builds every object once, in dependency order, with no singletons. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const secrets = collectSecrets(config);
  const logger = options.logger ?? createLogger({ level: config.runtime.logLevel, secrets });
  const database = openDatabaseFor(options.database, config);
  // The schema is checked while this thread builds the app (~0.2 s): embedded PGlite is still starting on its own
  // thread, so waiting for it first would put the two one after the other. Nothing below reads the database before
  // `services.load()`.
  const migrated = migrateWhenReachable(database.db, { clock, logger });
  migrated.catch(() => undefined);
  const repositories = buildRepositories(database);

  let simulator: SimulatorHandle | null = null;
  if (config.models.anySimulated && options.demoSimulator !== false) {
    const participantPace = config.models.demoPace === 'readable' ? READABLE_PACE : undefined;
    simulator = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      latencyMs: 150,
      firstTokenMs: 250,
      tokensPerSecond: 60,
      ...(participantPace ? { participantPace } : {}),
    });
  }
  const models = new ModelCatalog(config.models, { clock, logger, ...(simulator ? { simulatorUrl: simulator.url } : {}) });
  // Prices and context windows are listed once, off every turn's path.
  void models.warmUp();
  const events = new InMemoryEventBus();
  // Each write of trace rows is announced, so a session page's usage table follows without a reload.
  const onStored = (stored: { traceId: string; sessionId: string | null }[]) =>
    stored.forEach(({ traceId, sessionId }) => events.publish({ type: 'trace', sessionId, traceId }));
  // Participants' usage is counted with their stored answers; every other agent's model calls count here.
  const participantNames = new Set(config.models.roster.map((participant) => participant.name));
  const onGenerationUsage = (usage: GenerationUsage) => {
    if (usage.agent === undefined || participantNames.has(usage.agent)) return;
    void repositories.sessions
      .addModelUsage(usage.sessionId, usage, clock.now())
      .catch((error: unknown) => logger.warn({ err: error }, 'could not count a model call toward its session'));
  };
  const workerId = ids.next('worker');
  const tracing = new DbTracingProcessor(new TracesRepository(database.background), {
    secrets,
    clock,
    logger,
    onStored,
    onGenerationUsage,
    prices: models.prices,
    workerId,
  });
  const processors: TracingProcessor[] = [tracing];
  if (config.telemetry.otlpEndpoint) {
    processors.push(new OtlpTracingProcessor({ endpoint: config.telemetry.otlpEndpoint, headers: config.telemetry.otlpHeaders, secrets, logger }));
  }
  installTracing(processors);

  const transports = new TransportRegistry(options.transports ?? []);
  const notifier = createAdminNotifier({ ntfyUrl: config.notifications.ntfyUrl, logger });
  const othersGone = new Set<() => void>();
  const worker = new JobWorker({
    workerId,
    instance: { onOthersGone: () => othersGone.forEach((listener) => listener()) },
    jobs: repositories.jobs,
    clock,
    logger,
    onTerminalFailure: createTerminalFailureNotifier(notifier),
    lanes: JOB_LANES,
    ...(options.workerPollMs ? { pollMs: options.workerPollMs } : {}),
  });
  const liveProcesses = new LiveProcesses({ clock, jobs: repositories.jobs });
  const services = buildServices({
    config,
    clock,
    ids,
    logger,
    repositories,
    models,
    prompts: new PromptLibrary(),
    runner: new Runner({ workflowName: 'Brainstorm', traceIncludeSensitiveData: true }),
    events,
    transports,
    worker,
    liveProcesses,
    secrets,
    notifier,
    ...(database.connectionUse ? { databaseConnectionUse: database.connectionUse } : {}),
    ...(database.signals ? { databaseSignals: database.signals } : {}),
  });
  try {
    await migrated;
  } catch (error) {
    await simulator?.close();
    throw error;
  }
  await services.load();

  let isReady = false;
  const resume = async () => {
    await services.resumeSessions();
    if (options.runWorker !== false) services.ownership.startPolling();
    isReady = true;
  };
  return {
    config,
    gateway: services.gateway,
    worker,
    liveProcesses,
    events,
    services,
    repositories,
    transports,
    logger,
    clock,
    simulatorUrl: simulator?.url ?? null,
    ready: () => isReady,
    async start(startOptions = {}) {
      if (options.runWorker !== false) await worker.start();
      if (options.runWorker !== false) await services.housekeeping.schedule();
      // After the worker declared gone the processes that died here: what they left half-written in rooms goes.
      if (options.runWorker !== false) await services.leftPreviews.schedule();
      if (startOptions.resume !== false) await resume();
    },
    resume,
    whenProcessesGone: (listener) => void othersGone.add(listener),
    async stop() {
      isReady = false;
      await services.ownership.stop();
      await services.coordinator.shutdown();
      await worker.stop();
      // After the rounds stopped: another process resumes these sessions at once (a rolling restart).
      await services.ownership.release().catch((error: unknown) => logger.warn({ err: error }, 'could not release session leases'));
      for (const processor of processors) {
        await processor.forceFlush();
        await processor.shutdown();
      }
      services.metrics.close();
      await simulator?.close();
      await database.close();
    },
  };
}

function openDatabaseFor(choice: AppOptions['database'], config: AppConfig): DatabaseHandle {
  if (choice && typeof choice === 'object' && 'db' in choice) return choice;
  if (choice === 'memory') return openDatabase({ kind: 'memory' });
  return openDatabase(choice ?? databaseLocationFor(config.runtime.databaseUrl, config.runtime.dataDir));
}
