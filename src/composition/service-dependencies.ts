/** What the session services are built from: the app's infrastructure, built before them by `createApp`. */
import type { LiveProcesses } from '../services/jobs/live-processes.ts';
import type { Runner } from '@openai/agents';
import type { ModelCatalog } from '../agents/models/model-catalog.ts';
import type { PromptLibrary } from '../agents/prompts/prompt-library.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { Clock } from '../core/clock.ts';
import type { IdGenerator } from '../core/ids.ts';
import type { EventBus } from '../core/ports.ts';
import type { Logger } from '../logging/logger.ts';
import type { TransportRegistry } from '../services/delivery/transport-registry.ts';
import type { JobWorker } from '../services/jobs/job-worker.ts';
import type { AdminNotifier } from '../services/notifications/admin-notifier.ts';
import type { DatabaseConnectionUse } from '../services/scale/app-metrics.ts';
import type { Repositories } from './build-repositories.ts';
import type { DatabaseSignals } from '../db/postgres-signals.ts';

/** What the services are built from. */
export interface ServiceDependencies {
  config: AppConfig;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  repositories: Repositories;
  models: ModelCatalog;
  prompts: PromptLibrary;
  runner: Runner;
  events: EventBus;
  transports: TransportRegistry;
  worker: JobWorker;
  /** The live processes of this installation (they share Notion's budget; one of them tells a room its messages wait). */
  liveProcesses: LiveProcesses;
  secrets: string[];
  notifier: AdminNotifier;
  /** How embedded PGlite's one connection is used (`/metrics`); absent on Postgres. */
  databaseConnectionUse?: () => DatabaseConnectionUse;
  /** Notices between the processes sharing a Postgres server (absent on PGlite: one process). */
  databaseSignals?: DatabaseSignals;
}
