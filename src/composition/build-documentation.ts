/** The documentation service's construction: the Scribe's and TLDR's passes, Notion, and the documents' appendix. */
import { createNotionGateway, notionFlags, notionObjectStore } from '../notion/create-notion-gateway.ts';
import type { CritiqueService } from '../services/critique/critique-service.ts';
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import { createDocumentationService, type DocumentationService } from '../services/documentation/documentation-service.ts';
import type { IdeaLedgerService } from '../services/ideas/idea-ledger-service.ts';
import { withPresetNote, type PresetService } from '../services/sessions/session-presets.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/** The services whose sections the documents carry, and the room for notices. */
export interface DocumentationLinks {
  settings: { effectiveConfig(): AppConfig };
  delivery: DeliveryService;
  ideas: IdeaLedgerService;
  critique: CritiqueService;
  presets: PresetService;
}

/** Builds the documentation service and registers its jobs. */
export function buildDocumentation(dependencies: ServiceDependencies, links: DocumentationLinks): DocumentationService {
  const { config, clock, logger, repositories, worker } = dependencies;
  const { settings, delivery, ideas, critique, presets } = links;
  const { liveProcesses } = dependencies;
  const documentation = createDocumentationService({
    // Getters: the intervals are read at each scheduling, so `!config` applies to the next message.
    settings: {
      dataDir: config.runtime.dataDir,
      notionRetryWindowMs: config.notion.retryWindowHours * 3_600_000,
      get scribeIntervalSeconds() {
        return settings.effectiveConfig().scribe.intervalSeconds;
      },
      get tldrIntervalSeconds() {
        return settings.effectiveConfig().tldr.intervalSeconds;
      },
    },
    clock,
    logger,
    documents: repositories.documents,
    jobs: repositories.jobs,
    messages: repositories.messages,
    revisions: repositories.revisions,
    sessions: repositories.sessions,
    embeddings: repositories.embeddings,
    models: dependencies.models,
    prompts: dependencies.prompts,
    notion: createNotionGateway(config.notion, {
      clock,
      logger,
      objects: notionObjectStore(repositories.notionObjects, clock),
      // Every process of the installation writes through the same integration: each takes its part of the budget,
      // and one creates what the others would (an intent names its creator, so a dead one's is taken over at once).
      processes: () => liveProcesses.count(),
      creator: { id: worker.id, isAlive: (id) => liveProcesses.isAlive(id) },
    }),
    notifier: dependencies.notifier,
    notice: async (sessionId, text) => {
      const session = await repositories.sessions.findById(sessionId);
      if (session) await delivery.post(session, { kind: 'system', name: 'Brainstorm' }, text);
    },
    flags: notionFlags(repositories.notionObjects, clock),
    nudge: () => worker.nudge(),
    appendix: async (sessionId, kind, markdown) => {
      const session = await repositories.sessions.findById(sessionId);
      const decorated = await critique.decorate(sessionId, await ideas.decorate(sessionId, kind, markdown));
      return withPresetNote(decorated, session && kind === 'record' ? presets.recordNote(session) : null);
    },
    // `!summary` and a nearly full context need the pass's result, even when the loop claimed that pass first.
    runQueue: (queue) => worker.runQueue(queue, { awaitRunning: true }),
  });
  documentation.registerJobs(worker);
  // The sessions database row in Notion follows every status change.
  dependencies.events.subscribe((event) => {
    if (event.type === 'session')
      void documentation.onSessionChanged(event.session.id).catch((error: unknown) => logger.warn({ err: error }, 'could not update the Notion row'));
  });
  return documentation;
}
