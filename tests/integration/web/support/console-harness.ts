/** Builds the console over a fresh in-memory database, the scripted gateway, and a server on a free port. */
import { openDatabase, type DatabaseHandle } from '../../../../src/db/create-database.ts';
import { migrateToLatest } from '../../../../src/db/migrate.ts';
import { createLogger } from '../../../../src/logging/logger.ts';
import { DocumentsRepository } from '../../../../src/repositories/documents-repository.ts';
import { MessagesRepository } from '../../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../../src/repositories/sessions-repository.ts';
import { TracesRepository } from '../../../../src/repositories/traces-repository.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import { ConsoleQueries } from '../../../../src/services/console/console-queries.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import { sequentialIds } from '../../../../src/core/ids.ts';
import { LocalTransport } from '../../../../src/web/local-transport.ts';
import { createWebServer, type WebServer, type WebServerOptions } from '../../../../src/web/web-server.ts';
import type { Page } from 'playwright-core';
import { ScriptedGateway } from './scripted-gateway.ts';

/** Everything a console test touches. */
export interface ConsoleHarness {
  server: WebServer;
  /** What the server was built from: `createConsoleApp(options)` gives the same app without a socket. */
  options: WebServerOptions;
  database: DatabaseHandle;
  sessions: SessionsRepository;
  messages: MessagesRepository;
  documents: DocumentsRepository;
  traces: TracesRepository;
  transport: LocalTransport;
  events: InMemoryEventBus;
  clock: ManualClock;
  gateway: ScriptedGateway;
  queries: ConsoleQueries;
  ready: { value: boolean };
  close(): Promise<void>;
}

/** Opens a harness; `overrides` change server options (host, token, demo mode...); `shared` reuses a database. */
export async function openConsoleHarness(overrides: Partial<WebServerOptions> = {}, shared?: DatabaseHandle): Promise<ConsoleHarness> {
  const database = shared ?? openDatabase({ kind: 'memory' });
  if (!shared) await migrateToLatest(database.db);
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const ids = sequentialIds();
  const sessions = new SessionsRepository(database.db);
  const messages = new MessagesRepository(database.db);
  const documents = new DocumentsRepository(database.db);
  const traces = new TracesRepository(database.db);
  const events = new InMemoryEventBus();
  const transport = new LocalTransport({ clock, ids });
  const gateway = new ScriptedGateway({ sessions, messages, documents, traces, transport, events, clock });
  const queries = new ConsoleQueries({ sessions, messages, documents, traces }, clock);
  const ready = { value: true };
  const options: WebServerOptions = {
    host: '127.0.0.1',
    port: 0,
    gateway,
    queries,
    events,
    localTransport: transport,
    logger: createLogger({ level: 'silent', secrets: [] }),
    demoMode: true,
    readiness: () => ready.value,
    ids,
    ...overrides,
  };
  const server = createWebServer(options);
  return {
    server,
    options,
    database,
    sessions,
    messages,
    documents,
    traces,
    transport,
    events,
    clock,
    gateway,
    queries,
    ready,
    async close() {
      await server.stop();
      if (!shared) await database.close();
    },
  };
}

/** Starts a session from the console's topic box (Enter submits it) and waits for its page and the Planner's first message. */
export async function openSessionPage(page: Page, url: string, topic: string): Promise<void> {
  await page.goto(url);
  await page.locator('#topic').fill(topic);
  await page.locator('#topic').press('Enter');
  await page.waitForURL(/#\/sessions\//);
  await page.locator('.message[data-speaker="Planner"]').first().waitFor();
}
