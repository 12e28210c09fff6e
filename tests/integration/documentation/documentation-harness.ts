/** Test harness: the documentation service on a real database, the real job worker, fake Notion and scripted models. */
import type { Model } from '@openai/agents';
import { assistantMessage, modelError, modelResponder, ScriptedModel, type RecordedModelCall, type ScriptedModelInput } from '@openai/agents/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PromptLibrary } from '../../../src/agents/prompts/prompt-library.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { createNotionGateway, notionFlags, notionObjectStore } from '../../../src/notion/create-notion-gateway.ts';
import type { NotionObjectStore } from '../../../src/notion/notion-gateway.ts';
import { DocumentsRepository } from '../../../src/repositories/documents-repository.ts';
import { EmbeddingsRepository } from '../../../src/repositories/embeddings-repository.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { PersonRevisionsRepository } from '../../../src/repositories/person-revisions-repository.ts';
import { NotionObjectsRepository } from '../../../src/repositories/notion-objects-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { createDocumentationService, type DocumentationService } from '../../../src/services/documentation/documentation-service.ts';
import type { DocumentationDependencies, DocumentationModels, DocumentationSettings } from '../../../src/services/documentation/documentation-types.ts';
import { JobWorker, type JobWorkerOptions } from '../../../src/services/jobs/job-worker.ts';
import type { AdminNotice } from '../../../src/services/notifications/admin-notifier.ts';
import { createTerminalFailureNotifier } from '../../../src/services/notifications/admin-notifier.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import type { FakeNotion } from '../../fakes/notion/fake-notion.ts';

/** The text a scripted model was given (its user messages). */
export function inputText(call: RecordedModelCall): string {
  const input = call.request.input;
  if (typeof input === 'string') return input;
  return input
    .map((item) => ('content' in item && typeof item.content === 'string' ? item.content : JSON.stringify('content' in item ? item.content : '')))
    .join('\n');
}

/** A Scribe that writes one bullet per cited message line it was given, keeping the previous record (else `first`). */
export function scribeReplyOn(first: string): (call: RecordedModelCall) => ReturnType<typeof assistantMessage>[] {
  return (call) => {
    const text = inputText(call);
    const previous = /Previous record \([^)]*\):\n([\s\S]*?)\n\nNew messages/.exec(text)?.[1] ?? first;
    const lines = [...text.matchAll(/^#(\d+) \[([^\]]+)\]: (.*)$/gm)].map((match) => `- ${match[2]} said (#${match[1]}): ${match[3]}`);
    return [assistantMessage(`${previous}\n${lines.join('\n')}`)];
  };
}

/** The Scribe of `scribeReplyOn`, starting from an empty discussion flow. */
export const scribeReply = scribeReplyOn('# Detailed record\n## Discussion flow');

/** A TLDR that cites the first three message references of the record it read. */
export function tldrReply(call: RecordedModelCall): ReturnType<typeof assistantMessage>[] {
  const references = [...new Set([...inputText(call).matchAll(/#\d+/g)].map((match) => match[0]))].slice(0, 4);
  const keyFindings = references.map((reference) => ({ finding: `The point made in ${reference} held up.`, sources: [reference] }));
  // Every finding cites a message that exists, as the TLDR's guardrail demands.
  while (keyFindings.length < 3) keyFindings.push({ finding: 'The group agreed to continue.', sources: references.slice(0, 1) });
  return [assistantMessage(JSON.stringify({ summary: 'The session explored the topic.\n\nIt converged on a plan.', keyFindings }))];
}

/** Scripted models that answer every call (or fail first, or at the Scribe calls numbered in `scribeFailsAt`). */
export function scriptedModels(
  options: { scribeFailures?: number; scribeFailsAt?: number[]; embed?: (texts: string[]) => number[][] | null; firstRecord?: string } = {},
): DocumentationModels & { scribe: ScriptedModel; tldr: ScriptedModel } {
  const failures: ScriptedModelInput[] = Array.from({ length: options.scribeFailures ?? 0 }, () => modelError(new Error('upstream 503')));
  const answers = Array.from({ length: 200 }, (_, index) =>
    options.scribeFailsAt?.includes(index)
      ? modelError(new Error('upstream 503'))
      : modelResponder(options.firstRecord ? scribeReplyOn(options.firstRecord) : scribeReply),
  );
  const scribe = new ScriptedModel([...failures, ...answers]);
  const tldr = new ScriptedModel(Array.from({ length: 200 }, () => modelResponder(tldrReply)));
  return {
    scribe,
    tldr,
    role: (role): Model => (role === 'scribe' ? scribe : tldr),
    embed: async (texts) => options.embed?.(texts) ?? null,
  };
}

/** Everything a documentation test touches. */
export interface DocumentationHarness {
  clock: ManualClock;
  service: DocumentationService;
  worker: JobWorker;
  sessions: SessionsRepository;
  messages: MessagesRepository;
  documents: DocumentsRepository;
  jobs: JobsRepository;
  notices: AdminNotice[];
  /** The service's settings, as `!config` changes them at run time. */
  settings: DocumentationSettings;
  /** Notices posted in session rooms (what `delivery.post` would send), by session. */
  roomNotices: { sessionId: string; text: string }[];
  dataDir: string;
  models: ReturnType<typeof scriptedModels>;
  /** Runs every due job, letting limiter waits on the manual clock pass. */
  runDue(): Promise<number>;
  say(sessionId: string, speaker: Speaker, text: string): Promise<number>;
  newSession(id: string, topic: string): Promise<void>;
}

export interface DocumentationHarnessOptions {
  notion: FakeNotion | null;
  token?: string;
  clock?: ManualClock;
  models?: ReturnType<typeof scriptedModels>;
  scribeIntervalSeconds?: number;
  tldrIntervalSeconds?: number;
  notionMaxRetries?: number;
  notionRetryWindowMs?: number;
  /** Worker identity (a restarted process is a new worker on the same database). */
  workerId?: string;
  instance?: JobWorkerOptions['instance'];
  /** Wraps the jobs the service sees (e.g. to hold back a statement's answer); the worker keeps the real ones. */
  wrapJobs?: (jobs: JobsRepository) => DocumentationDependencies['jobs'];
  /** Wraps the Notion id store (e.g. to simulate a crash right after a create). */
  wrapObjects?: (store: NotionObjectStore) => NotionObjectStore;
  dataDir?: string;
}

/** Builds the harness on an open database; `notion` null means mirror only. */
export function createDocumentationHarness(handle: DatabaseHandle, options: DocumentationHarnessOptions): DocumentationHarness {
  const clock = options.clock ?? new ManualClock();
  const logger = createLogger({ level: 'silent', secrets: [] });
  const sessions = new SessionsRepository(handle.db);
  const messages = new MessagesRepository(handle.db);
  const documents = new DocumentsRepository(handle.db);
  const jobs = new JobsRepository(handle.db);
  const notices: AdminNotice[] = [];
  const notifier = { notify: async (notice: AdminNotice) => void notices.push(notice) };
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'brainstorm-docs-'));
  const roomNotices: { sessionId: string; text: string }[] = [];
  const notionObjects = new NotionObjectsRepository(handle.db);
  const objects = notionObjectStore(notionObjects, clock);
  const models = options.models ?? scriptedModels();
  const notion = options.notion
    ? createNotionGateway(
        {
          apiKey: options.token ?? 'secret_test_token',
          baseUrl: options.notion.url,
          parentPageId: options.notion.parentPageId,
          databaseId: undefined,
          requestsPerSecond: 3,
        },
        { clock, logger, objects: options.wrapObjects ? options.wrapObjects(objects) : objects },
      )
    : null;
  const settings: DocumentationSettings = {
    dataDir,
    scribeIntervalSeconds: options.scribeIntervalSeconds ?? 60,
    tldrIntervalSeconds: options.tldrIntervalSeconds ?? 600,
    notionMaxRetries: options.notionMaxRetries ?? 25,
    ...(options.notionRetryWindowMs ? { notionRetryWindowMs: options.notionRetryWindowMs } : {}),
  };
  const service = createDocumentationService({
    settings,
    clock,
    logger,
    documents,
    jobs: options.wrapJobs ? options.wrapJobs(jobs) : jobs,
    messages,
    revisions: new PersonRevisionsRepository(handle.db),
    sessions,
    embeddings: new EmbeddingsRepository(handle.db),
    models,
    prompts: new PromptLibrary(),
    notion,
    notifier,
    notice: async (sessionId, text) => void roomNotices.push({ sessionId, text }),
    flags: notionFlags(notionObjects, clock),
    runQueue: (queue) => worker.runQueue(queue),
  });
  const worker = new JobWorker({
    workerId: options.workerId ?? 'docs-test',
    jobs,
    clock,
    logger,
    onTerminalFailure: createTerminalFailureNotifier(notifier),
    ...(options.instance ? { instance: options.instance } : {}),
  });
  service.registerJobs(worker);
  return {
    clock,
    service,
    worker,
    sessions,
    messages,
    documents,
    jobs,
    notices,
    settings,
    roomNotices,
    dataDir,
    models,
    runDue: () => settleWithClock(worker.runDue(), clock),
    async say(sessionId, speaker, text) {
      const { message } = await messages.insert(
        { sessionId, speaker, role: speaker.kind === 'human' ? 'user' : 'assistant', text, deliveryStatus: 'delivered' },
        clock.now(),
      );
      await service.onMessage(sessionId);
      return message.id;
    },
    async newSession(id, topic) {
      await sessions.create(
        {
          id,
          parentId: null,
          transport: 'test',
          roomId: `room-${id}`,
          roomUrl: `https://discord.test/${id}`,
          originChannelId: null,
          originMessageId: null,
          topic,
          status: 'active',
          createdBy: { id: 'u1', name: 'Ada' },
        },
        clock.now(),
      );
      await service.onSessionChanged(id);
    },
  };
}
