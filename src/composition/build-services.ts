import type { Runner } from '@openai/agents';
import { AgentDirectory } from '../agents/agent-directory.ts';
import { participantOutputGuardrails, plannerBoundsGuardrail, screenHumanMessage, screenPreview } from '../agents/guardrails/index.ts';
import type { ModelCatalog } from '../agents/models/model-catalog.ts';
import { createModeratorAgent } from '../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../agents/prompts/prompt-library.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { Logger } from '../logging/logger.ts';
import type { Clock } from '../core/clock.ts';
import { CommandService } from '../services/commands/command-service.ts';
import { ContextManager } from '../services/context/context-manager.ts';
import { TokenCounter } from '../services/context/token-counter.ts';
import { OwnedCoordinator } from '../services/scale/owned-coordinator.ts';
import { SessionOwnership } from '../services/scale/session-ownership.ts';
import { MeasuredTurnRunner } from '../services/scale/measured-turn-runner.ts';
import { createAppMetrics } from '../services/scale/app-metrics.ts';
import { DeliveryService } from '../services/delivery/delivery-service.ts';
import type { TransportRegistry } from '../services/delivery/transport-registry.ts';
import type { IdGenerator } from '../core/ids.ts';
import type { JobWorker } from '../services/jobs/job-worker.ts';
import { LimitsService } from '../services/limits/limits-service.ts';
import type { EventBus } from '../core/ports.ts';
import { ModerationService } from '../services/moderation/moderation-service.ts';
import { createSessionModerationHost } from '../services/moderation/session-moderation-host.ts';
import { createScribeAgent } from '../agents/scribe/scribe-agent.ts';
import { createTldrAgent } from '../agents/tldr/tldr-agent.ts';
import { createDocumentationService } from '../services/documentation/documentation-service.ts';
import { buildIdeaLedger } from './build-idea-ledger.ts';
import { buildCritique } from './build-critique.ts';
import { isSimulatedSpeaker } from './simulated-speakers.ts';
import { createNotionGateway, notionFlags, notionObjectStore } from '../notion/create-notion-gateway.ts';
import { MarkdownMirror } from '../notion/markdown-mirror.ts';
import { documentLinksOf } from '../services/documentation/document-links.ts';
import { createRecallSessionsTool } from '../tools/recall-sessions.ts';
import type { AdminNotifier } from '../services/notifications/admin-notifier.ts';
import { PlannerFlow } from '../services/sessions/planner-flow.ts';
import { RosterService } from '../services/sessions/roster-service.ts';
import { PresetService, withPresetNote } from '../services/sessions/session-presets.ts';
import { SessionGatewayService } from '../services/sessions/session-gateway.ts';
import { FLOOD_BURST_WINDOW_MS, FloodGate } from '../services/sessions/flood-gate.ts';
import { SessionLifecycle, WRAP_UP_JOB } from '../services/sessions/session-lifecycle.ts';
import { createToolPortsFactory } from '../services/sessions/tool-ports.ts';
import type { Repositories } from './build-repositories.ts';
import { applyToRunningSessions } from '../services/settings/running-sessions.ts';
import { createSettingsPort } from './settings-port.ts';

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
  secrets: string[];
  notifier: AdminNotifier;
}

/** The built services (the app and the transports reach them through the gateway). */
export type Services = ReturnType<typeof buildServices>;

/** Builds the session services in dependency order and registers their job handlers. */
export function buildServices(dependencies: ServiceDependencies) {
  const { config, clock, logger, repositories, models, worker, transports, events } = dependencies;
  const settings = createSettingsPort({ repositories, config, clock, logger });
  const limitsConfig = () => settings.effectiveConfig().limits;
  const nudgeWorker = () => worker.nudge();

  const delivery = new DeliveryService({
    messages: repositories.messages,
    sessions: repositories.sessions,
    transports,
    clock,
    events,
    logger,
    simulated: (speaker) => isSimulatedSpeaker(config.models, speaker),
    sanitizePreview: (text) => screenPreview(text, dependencies.secrets),
    nudgeWorker,
    runQueue: (queue) => worker.runQueue(queue),
  });
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
    sessions: repositories.sessions,
    embeddings: repositories.embeddings,
    models,
    prompts: dependencies.prompts,
    notion: createNotionGateway(config.notion, { clock, logger, objects: notionObjectStore(repositories.notionObjects, clock) }),
    notifier: dependencies.notifier,
    notice: async (sessionId, text) => {
      const session = await repositories.sessions.findById(sessionId);
      if (session) await delivery.post(session, { kind: 'system', name: 'Brainstorm' }, text);
    },
    flags: notionFlags(repositories.notionObjects, clock),
    nudge: nudgeWorker,
    appendix: async (sessionId, kind, markdown) => {
      const session = await repositories.sessions.findById(sessionId);
      const decorated = await critique.decorate(sessionId, await ideas.decorate(sessionId, kind, markdown));
      return withPresetNote(decorated, session && kind === 'record' ? presets.recordNote(session) : null);
    },
    runQueue: (queue) => worker.runQueue(queue),
  });
  documentation.registerJobs(worker);
  events.subscribe((event) => {
    if (event.type === 'session')
      void documentation.onSessionChanged(event.session.id).catch((error: unknown) => logger.warn({ err: error }, 'could not update the Notion row'));
  });
  const limits = new LimitsService(repositories.messages, limitsConfig, clock);
  const moderation = new ModerationService({
    host: createSessionModerationHost({
      sessions: repositories.sessions,
      messages: repositories.messages,
      delivery,
      limits,
      clock,
      endSession: () => (id, status, reason) => lifecycle.end(id, status, reason),
      toolPorts: () => toolPorts,
      activeParticipantNames: () => (session) => roster.active(session).map((participant) => participant.name),
      // The final TLDR reaches Notion after the closing is posted; the console's view holds both documents at once.
      documentLinks: async (session) =>
        documentLinksOf(session, await documentation.notionLinks(session.id), {
          consoleUrl: `http://${config.web.host}:${config.web.port}`,
          pathOf: (id, kind) => new MarkdownMirror(config.runtime.dataDir).pathOf(id, kind),
        }),
      inviteSpeaker: (sessionId, name) => coordinator.invite(sessionId, name),
      holdSpeaker: (sessionId, name) => coordinator.hold(sessionId, name),
    }),
    moderator: createModeratorAgent({ model: models.role('moderator'), prompts: dependencies.prompts }),
    scribe: createScribeAgent({ model: models.role('scribe'), prompts: dependencies.prompts }),
    tldr: createTldrAgent({ model: models.role('tldr'), prompts: dependencies.prompts }),
    prompts: dependencies.prompts,
    settings: () => settings.effectiveConfig().moderator,
    embed: (texts) => models.embed(texts),
    logger,
    ledgerCheck: (session) => ideas.afterRound(session),
    wrapUpNote: (session) => critique.wrapUpNote(session.id),
  });
  const ideas = buildIdeaLedger(dependencies, {
    delivery,
    settings: () => settings.effectiveConfig(),
    lifecycle: () => lifecycle,
    coordinator: () => coordinator,
    roster: () => roster,
    presets: () => presets,
  });
  ideas.registerJobs(worker);
  const critique = buildCritique(dependencies, { delivery, documentation, roster: () => roster });
  const messageHooks = { onMessage: async (sessionId: string) => void (await Promise.all([documentation.onMessage(sessionId), ideas.onMessage(sessionId)])) };
  const tokens = new TokenCounter();
  const context = new ContextManager({
    messages: repositories.messages,
    documentation,
    tokens,
    contextWindow: (model) => models.contextWindow(model),
    limits: limitsConfig,
    historyBudgetTokens: config.environment.CONTEXT_HISTORY_BUDGET_TOKENS,
  });
  const roster = new RosterService(config.models.roster, settings, (id) => models.breaker(id).state !== 'open');
  const presets = new PresetService(config.presets, () => config.models.roster);
  const lifecycle = new SessionLifecycle({
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    delivery,
    clock,
    events,
    logger,
    nudgeWorker,
    bounds: limitsConfig,
  });
  const toolPorts = createToolPortsFactory({
    sessions: repositories.sessions,
    delivery,
    limits,
    lifecycle,
    documents: documentation,
    bounds: limitsConfig,
    presets,
  });
  const agents = new AgentDirectory({
    models,
    prompts: dependencies.prompts,
    limits: limitsConfig,
    get maxPlannerQuestions() {
      return settings.effectiveConfig().planner.maxQuestions;
    },
    createModerator: (model) => createModeratorAgent({ model, prompts: dependencies.prompts }),
    participantGuardrails: (names, self) => participantOutputGuardrails(names, self, { knownSecrets: dependencies.secrets }),
    startSessionGuardrails: [plannerBoundsGuardrail(limitsConfig)],
    plannerTools: [createRecallSessionsTool()],
    roleNote: (session, name) => ideas.roleNote(session, name),
  });
  const metrics = createAppMetrics({
    clock,
    logger,
    repository: repositories.metrics,
    ownedSessions: () => ownership.ownedSessions().length,
    modelQueueDepths: () => models.queueDepths(),
  });
  const turns = new MeasuredTurnRunner(
    {
      runner: dependencies.runner,
      agents,
      delivery,
      context,
      tokens,
      limits,
      toolPorts,
      logger,
      typing: async (session) => (transports.has(session.transport) ? transports.get(session.transport).sendTyping(session.roomId) : undefined),
      prices: models.prices,
    },
    metrics.turns,
  );
  const ownership = new SessionOwnership({
    ownerId: worker.id,
    leases: repositories.leases,
    sessions: repositories.sessions,
    messages: repositories.messages,
    clock,
    logger,
    canOwn: async (session) => transports.has(session.transport) && ((await transports.get(session.transport).handlesRoom?.(session.roomId)) ?? true),
    mayContinue: (session) => session.aiRoundsSinceHuman < limitsConfig().maxAiRoundsWithoutHuman,
    leaseMs: config.environment.SESSION_LEASE_SECONDS * 1000,
  });
  const coordinator = new OwnedCoordinator(
    {
      sessions: repositories.sessions,
      messages: repositories.messages,
      roster,
      turns,
      limits,
      delivery,
      moderation,
      documentation: messageHooks,
      ender: lifecycle,
      settings: limitsConfig,
      clock,
      logger,
      deadlines: () => ({
        firstTokenMs: config.environment.PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS * 1000,
        answerMs: config.environment.PARTICIPANT_ANSWER_TIMEOUT_SECONDS * 1000,
      }),
    },
    ownership,
  );
  lifecycle.attach(coordinator);
  settings.onChange((_config, change) => applyToRunningSessions(change, lifecycle));
  const planner = new PlannerFlow({
    sessions: repositories.sessions,
    runStates: repositories.runStates,
    jobs: repositories.jobs,
    delivery,
    agents,
    roster,
    presets,
    runner: dependencies.runner,
    lifecycle,
    coordinator,
    toolPorts,
    clock,
    logger,
    planner: () => settings.effectiveConfig().planner,
    limits: limitsConfig,
    nudgeWorker,
  });
  const gateway: SessionGatewayService = new SessionGatewayService({
    sessions: repositories.sessions,
    messages: repositories.messages,
    transports,
    planner,
    coordinator,
    commands: () => commands,
    screen: (text, sessionId, subject) =>
      screenHumanMessage(text, { maxChars: limitsConfig().maxHumanMessageChars, knownSecrets: dependencies.secrets, sessionId, subject }),
    events,
    clock,
    ids: dependencies.ids,
    logger,
    onStored: (sessionId) => messageHooks.onMessage(sessionId),
    inbound: repositories.inbound,
    floodGate: new FloodGate(
      clock,
      () => ({
        burstWindowMs: FLOOD_BURST_WINDOW_MS,
        messagesPerMinute: settings.effectiveConfig().limits.humanMessagesPerMinute,
      }),
      events,
    ),
    summarize: async (session) =>
      (await documentation.latestTldr(session.id)) ?? (await documentation.latestRecord(session.id)) ?? session.plan?.expandedTopic ?? session.topic,
    presets,
    startContext: () => config.startContext,
  });
  const commands: CommandService = new CommandService({
    sessions: repositories.sessions,
    lifecycle,
    planner,
    delivery,
    limits,
    context,
    documentation,
    moderation,
    roster,
    settings,
    explore: (parent, topic, invocation) => gateway.explore(parent, topic, invocation),
    startFromConversation: (topic, invocation) => gateway.startFromConversation(topic, invocation),
    presets,
    ideas,
    clock,
    logger,
    commandsPerMinute: () => settings.effectiveConfig().discord.commandRateLimitPerMinute,
  });

  // Each module owns its job kinds and registers their handlers; only the wrap-up spans several services.
  delivery.registerJobs(worker);
  planner.registerJobs(worker);
  lifecycle.registerJobs(worker);
  worker.register(WRAP_UP_JOB, async (job) => {
    const session = await repositories.sessions.findById(String(job.payload.sessionId));
    // The answers cut by the end land (marked) before the closing, which is the last word.
    await coordinator.idle(String(job.payload.sessionId));
    if (session) await ideas.finalPass(session.id);
    if (session) await critique.beforeWrapUp(session);
    if (session) await moderation.wrapUp(session, String(job.payload.reason));
    return { status: 'done' };
  });

  return {
    gateway,
    commands,
    coordinator,
    ownership,
    metrics,
    lifecycle,
    planner,
    delivery,
    limits,
    context,
    roster,
    presets,
    settings,
    documentation,
    moderation,
    ideas,
    critique,
    async load() {
      await settings.load();
      // Only a log line depends on it, and a distant provider may take seconds: start-up does not wait.
      void moderation.announceDriftMode();
    },
    /**
     * After a restart every active session that no live process holds picks up where it was (jobs resume by
     * themselves): people who spoke after the last answer are answered first, otherwise the AI rounds continue.
     */
    async resumeSessions() {
      await ownership.adoptOrphans();
      await ownership.settled();
    },
  };
}
