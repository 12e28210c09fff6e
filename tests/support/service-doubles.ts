/**
 * Doubles for unit tests of the core services, each service built by hand (never through `createApp`): strict
 * stubs, a roster, limits, a silent logger, and real repositories over a clone of the migrated PGlite template.
 */
import type { Logger } from 'pino';
import type { LimitsConfig } from '../../src/config/app-config.ts';
import type { ParticipantConfig } from '../../src/config/roster.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { Session, SessionStatus } from '../../src/core/domain.ts';
import { pgliteHandle, type DatabaseHandle } from '../../src/db/create-database.ts';
import { createLogger } from '../../src/logging/logger.ts';
import type { EventBus, Transport } from '../../src/core/ports.ts';
import { InMemoryEventBus } from '../../src/core/event-bus.ts';
import { DeliveryService } from '../../src/services/delivery/delivery-service.ts';
import { TransportRegistry } from '../../src/services/delivery/transport-registry.ts';
import { PersonRevisionsRepository } from '../../src/repositories/person-revisions-repository.ts';
import { InboundRepository } from '../../src/repositories/inbound-repository.ts';
import { JobsRepository } from '../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../src/repositories/messages-repository.ts';
import { SessionsRepository, type SessionChanges } from '../../src/repositories/sessions-repository.ts';
import { clonePgliteTemplate } from './databases.ts';

/**
 * A stand-in for `T` that has only `members`: any other method called fails the test with its name, so a double
 * never answers a call the test did not plan for. The one cast of these doubles lives here. Beware: an optional
 * method the code tests for presence (`transport.deleteMessage?`) looks present on a stub; give it, or leave `T` without it.
 */
export function stub<T extends object>(label: string, members: Partial<T> = {}): T {
  const handler: ProxyHandler<Partial<T>> = {
    get(target, property, receiver) {
      if (Reflect.has(target, property)) return Reflect.get(target, property, receiver);
      // Not a thenable, and inspection (symbols) sees nothing.
      if (typeof property === 'symbol' || property === 'then') return undefined;
      return () => {
        throw new Error(`unexpected call: ${label}.${property}`);
      };
    },
  };
  return new Proxy(members, handler) as T;
}

/** A logger that says nothing (set TEST_LOG=1 to see errors). */
export function quietLogger(): Logger {
  return createLogger({ level: process.env.TEST_LOG === '1' ? 'error' : 'silent', secrets: [] });
}

/** A simulated participant called `name` (its id is the name in lower case). */
export function participant(name: string, extra: Partial<ParticipantConfig> = {}): ParticipantConfig {
  return {
    id: name.toLowerCase(),
    name,
    model: `test/${name.toLowerCase()}`,
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKeyVariable: undefined,
    apiKey: undefined,
    dialect: 'openrouter',
    simulated: true,
    persona: `${name} thinks aloud.`,
    avatarUrl: undefined,
    temperature: 0.5,
    contextWindow: undefined,
    enabled: true,
    ...extra,
  };
}

/** Generous admin bounds; a test narrows the ones it is about. */
export function limitsConfig(overrides: Partial<LimitsConfig> = {}): LimitsConfig {
  return {
    maxMessages: 100,
    maxTokens: 1_000_000,
    maxCostUsd: 100,
    maxContextPercent: 80,
    contextRefreshPercent: 50,
    timeoutMinutes: 60,
    maxAiResponsesPerTurn: 2,
    batchWindowSeconds: 600,
    maxAiRoundsWithoutHuman: 3,
    maxHumanMessageChars: 8000,
    humanMessagesPerMinute: 10,
    ...overrides,
  };
}

/** The repositories the core services use, over a fresh migrated PGlite. */
export interface TestRepositories {
  handle: DatabaseHandle;
  sessions: SessionsRepository;
  messages: MessagesRepository;
  jobs: JobsRepository;
  inbound: InboundRepository;
  revisions: PersonRevisionsRepository;
}

/** Opens a clone of the migrated template (milliseconds) with its repositories; close `handle` after the test. */
export async function openRepositories(
  jobs: (handle: DatabaseHandle) => JobsRepository = (handle) => new JobsRepository(handle.db),
): Promise<TestRepositories> {
  const handle = pgliteHandle(await clonePgliteTemplate());
  return {
    handle,
    sessions: new SessionsRepository(handle.db),
    messages: new MessagesRepository(handle.db),
    jobs: jobs(handle),
    inbound: new InboundRepository(handle.db),
    revisions: new PersonRevisionsRepository(handle.db),
  };
}

/** Stores a session in `status` (in room `room-<id>` of the `memory` transport), with `changes` applied. */
export async function storeSession(
  sessions: SessionsRepository,
  clock: Clock,
  options: { id?: string; status?: SessionStatus; changes?: SessionChanges } = {},
): Promise<Session> {
  const id = options.id ?? 's1';
  const now = clock.now();
  const created = await sessions.create(
    {
      id,
      parentId: null,
      transport: 'memory',
      roomId: `room-${id}`,
      roomUrl: null,
      originChannelId: 'channel-1',
      originMessageId: null,
      topic: 'Feature flags for a small team',
      status: options.status ?? 'active',
      createdBy: { id: 'u-alice', name: 'Alice' },
    },
    now,
  );
  if (!options.changes) return created;
  const updated = await sessions.update(id, options.changes, now);
  if (!updated) throw new Error(`session ${id} vanished`);
  return updated;
}

/** Polls (by turns of the event loop, never on time) until `condition` holds, for work running in the background. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, attempts = 2000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** The real delivery service over `repositories` and one room transport; the worker's nudges and queue runs do nothing. */
export function deliveryOver(
  repositories: Pick<TestRepositories, 'messages' | 'sessions'>,
  clock: Clock,
  transport: Transport,
  events: EventBus = new InMemoryEventBus(),
): DeliveryService {
  return new DeliveryService({
    messages: repositories.messages,
    sessions: repositories.sessions,
    transports: new TransportRegistry([transport]),
    clock,
    events,
    logger: quietLogger(),
    simulated: () => false,
    sanitizePreview: (text) => text,
    nudgeWorker: () => undefined,
    runQueue: async () => undefined,
  });
}
