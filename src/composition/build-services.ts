import type { Session } from '../core/domain.ts';
import type { RunUsage } from '../agents/models/usage.ts';
import { AgentDirectory } from '../agents/agent-directory.ts';
import { participantOutputGuardrails, plannerBoundsGuardrail, screenPreview } from '../agents/guardrails/index.ts';
import { createModeratorAgent } from '../agents/moderator/moderator-agent.ts';
import { ContextManager } from '../services/context/context-manager.ts';
import { TokenCounter } from '../services/context/token-counter.ts';
import { SpeakerHints } from '../services/coordinator/speaker-hints.ts';
import { Coordinator } from '../services/coordinator/coordinator.ts';
import { SecretScanCache } from '../agents/guardrails/secret-scan-cache.ts';
import { OwnedCoordinator } from '../services/scale/owned-coordinator.ts';
import { SessionOwnership } from '../services/scale/session-ownership.ts';
import { MeasuredTurnRunner } from '../services/scale/measured-turn-runner.ts';
import { createAppMetrics, createTurnMetrics } from '../services/scale/app-metrics.ts';
import { measureEventLoopDelay } from '../services/scale/event-loop-delay.ts';
import { MetricsRegistry } from '../services/scale/metrics-registry.ts';
import { DeliveryService } from '../services/delivery/delivery-service.ts';
import { LimitsService } from '../services/limits/limits-service.ts';
import { createRecallSessionsTool } from '../tools/recall-sessions.ts';
import { PlannerFlow } from '../services/sessions/planner-flow.ts';
import { RosterService } from '../services/sessions/roster-service.ts';
import { PresetService } from '../services/sessions/session-presets.ts';
import { SessionLifecycle } from '../services/sessions/session-lifecycle.ts';
import { createToolPortsFactory } from '../services/sessions/tool-ports.ts';
import { applyToRunningSessions } from '../services/settings/running-sessions.ts';
import { NextStepsReminder } from '../services/follow-up/next-steps-reminder.ts';
import { registerWrapUpJob } from '../services/wrap-up/wrap-up-job.ts';
import { documentFiles, handOverDocuments } from '../services/documentation/document-files.ts';
import { buildCritique } from './build-critique.ts';
import { buildDocumentation } from './build-documentation.ts';
import { buildEntry } from './build-entry.ts';
import { buildIdeaLedger } from './build-idea-ledger.ts';
import { buildModeration } from './build-moderation.ts';
import type { ServiceDependencies } from './service-dependencies.ts';
import { createSettingsPort } from './settings-port.ts';
import { isSimulatedSpeaker } from './simulated-speakers.ts';
import { Housekeeping } from '../services/jobs/housekeeping.ts';
import { PgliteCheckpoints } from '../services/jobs/pglite-checkpoints.ts';
import { LeftPreviews } from '../services/delivery/left-previews.ts';
import { recordRefreshSignals, sessionSignals } from './session-signals.ts';

export type { ServiceDependencies } from './service-dependencies.ts';

/** The built services (the app and the transports reach them through the gateway). */
export type Services = ReturnType<typeof buildServices>;

/**
 * Builds the session services, each once and after everything it uses, so no service is handed a getter or a setter
 * for one built later. Services that must hear of one another without depending on each other talk through the event
 * bus (a session's end cuts its turns; `!continue` starts its rounds) or through a small shared object (the
 * Moderator's speaker hints). Each module registers the handlers of the job kinds it owns.
 */
export function buildServices(dependencies: ServiceDependencies) {
  const { config, clock, logger, repositories, models, worker, transports, events, prompts, databaseSignals } = dependencies;
  const settings = createSettingsPort({ repositories, config, clock, logger, ...(databaseSignals && { signals: databaseSignals }) });
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
    nudgeWorker: (queue) => worker.nudge(queue),
    runQueue: (queue) => worker.runQueue(queue),
    previews: { repository: repositories.previews, workerId: worker.id },
    documentFiles: (sessionId, kinds) => documentFiles(repositories.documents, sessionId, kinds),
  });
  const leftPreviews = new LeftPreviews({ previews: repositories.previews, jobs: repositories.jobs, transports, clock, logger });
  leftPreviews.registerJobs(worker);
  const limits = new LimitsService(repositories.messages, limitsConfig, clock, (model) => models.contextWindow(model), events);
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
  const hints = new SpeakerHints();
  const ideas = buildIdeaLedger(dependencies, { delivery, settings: () => settings.effectiveConfig(), lifecycle, hints, roster, presets });
  const critique = buildCritique(dependencies, { delivery, roster });
  const documentation = buildDocumentation(dependencies, { settings, delivery, ideas, critique, presets });
  const toolPorts = createToolPortsFactory({
    sessions: repositories.sessions,
    delivery,
    limits,
    lifecycle,
    documents: documentation,
    bounds: limitsConfig,
    presets,
  });
  const moderation = buildModeration(dependencies, { settings, delivery, limits, lifecycle, toolPorts, roster, hints, documentation, ideas, critique });
  const onStored = async (sessionId: string) => void (await Promise.all([documentation.onMessage(sessionId), ideas.onMessage(sessionId)]));
  const tokens = new TokenCounter();
  const refreshes = databaseSignals ? recordRefreshSignals(repositories.documents, databaseSignals, worker.id, logger) : null;
  const context = new ContextManager({
    messages: repositories.messages,
    documentation,
    tokens,
    contextWindow: (model) => models.contextWindow(model),
    limits: limitsConfig,
    historyBudgetTokens: config.environment.CONTEXT_HISTORY_BUDGET_TOKENS,
    now: () => clock.now(),
    ...(refreshes && { announceRefresh: refreshes.announce }),
  });
  refreshes?.onRefresh((sessionId) => context.refreshedElsewhere(sessionId));
  const agents = new AgentDirectory({
    models,
    prompts,
    limits: limitsConfig,
    get maxPlannerQuestions() {
      return settings.effectiveConfig().planner.maxQuestions;
    },
    createModerator: (model) => createModeratorAgent({ model, prompts }),
    participantGuardrails: (names, self) => participantOutputGuardrails(names, self, { knownSecrets: dependencies.secrets }),
    startSessionGuardrails: [plannerBoundsGuardrail(limitsConfig)],
    plannerTools: [createRecallSessionsTool()],
    roleNote: (session, name) => ideas.roleNote(session, name),
    participantInputScreen: { knownSecrets: dependencies.secrets, scans: new SecretScanCache() },
  });
  const metricsRegistry = new MetricsRegistry();
  const turnMetrics = createTurnMetrics(metricsRegistry, clock);
  const typing = async (session: { transport: string; roomId: string }) =>
    transports.has(session.transport) ? transports.get(session.transport).sendTyping(session.roomId) : undefined;
  // An answer cut before it was shown, or withdrawn at a handover, was still paid for: it counts toward its session.
  const spend = (sessionId: string, usage: RunUsage) => repositories.sessions.addModelUsage(sessionId, usage, clock.now());
  const turnOptions = { runner: dependencies.runner, agents, delivery, context, tokens, limits, toolPorts, logger, typing, spend };
  const turns = new MeasuredTurnRunner({ ...turnOptions, prices: models.prices, images: models.images }, turnMetrics);
  const deadlines = () => ({
    firstTokenMs: config.environment.PARTICIPANT_FIRST_TOKEN_TIMEOUT_SECONDS * 1000,
    answerMs: config.environment.PARTICIPANT_ANSWER_TIMEOUT_SECONDS * 1000,
  });
  const rounds = new Coordinator({
    sessions: repositories.sessions,
    messages: repositories.messages,
    roster,
    turns,
    limits,
    delivery,
    moderation,
    documentation: { onMessage: onStored },
    ender: lifecycle,
    hints,
    events,
    settings: limitsConfig,
    clock,
    logger,
    deadlines,
  });
  const ownership = new SessionOwnership({
    ownerId: worker.id,
    rounds,
    leases: repositories.leases,
    sessions: repositories.sessions,
    messages: repositories.messages,
    clock,
    logger,
    canOwn: async (session) => transports.has(session.transport) && ((await transports.get(session.transport).handlesRoom?.(session.roomId)) ?? true),
    mayContinue: (session) => session.aiRoundsSinceHuman < limitsConfig().maxAiRoundsWithoutHuman,
    leaseMs: config.environment.SESSION_LEASE_SECONDS * 1000,
    pollMs: config.environment.SESSION_POLL_MS,
    taken: (session) => leftPreviews.sweepRoom(session),
    ...(databaseSignals ? { signals: sessionSignals(repositories.leases, databaseSignals, logger) } : {}),
  });
  const coordinator = new OwnedCoordinator(rounds, ownership, events);
  // Embedded PGlite has no checkpointer: housekeeping checkpoints it, /metrics shows how that goes.
  const checkpoints = repositories.maintenance.engine === 'pglite' ? new PgliteCheckpoints({ maintenance: repositories.maintenance, clock }) : undefined;
  const metrics = createAppMetrics(metricsRegistry, turnMetrics, {
    clock,
    logger,
    repository: repositories.metrics,
    ownedSessions: () => ownership.ownedSessions().length,
    modelQueueDepths: () => models.queueDepths(),
    jobLanes: () => worker.laneUse(),
    memory: () => process.memoryUsage(),
    eventLoopDelay: measureEventLoopDelay(),
    ...(dependencies.databaseConnectionUse ? { databaseConnection: dependencies.databaseConnectionUse } : {}),
    ...(checkpoints ? { databaseCheckpoints: () => checkpoints.stats() } : {}),
    ...(databaseSignals ? { noticesListening: () => databaseSignals.listening } : {}),
  });
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
  const { commands, gateway } = buildEntry(dependencies, {
    settings,
    lifecycle,
    planner,
    coordinator,
    delivery,
    limits,
    context,
    documentation,
    moderation,
    roster,
    presets,
    ideas,
    onStored,
  });

  // Each module owns its job kinds and registers their handlers (documentation and the ledger did above).
  delivery.registerJobs(worker);
  planner.registerJobs(worker);
  lifecycle.registerJobs(worker);
  const housekeeping = new Housekeeping({
    jobs: repositories.jobs,
    maintenance: repositories.maintenance,
    ...(checkpoints ? { checkpoints } : {}),
    traces: repositories.traces,
    leftPreviews,
    clock,
    logger,
    options: { keepTracesMs: config.environment.TRACE_RETENTION_DAYS * 24 * 60 * 60_000 },
  });
  housekeeping.registerJobs(worker);
  const handOver = (session: Session) =>
    handOverDocuments({ documents: repositories.documents, delivery, notionConfigured: config.notion.apiKey !== undefined }, session);
  const reminder = new NextStepsReminder({
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    documentation,
    delivery,
    clock,
    reminderDays: config.followUp.reminderDays,
    logger,
  });
  reminder.registerJobs(worker);
  const followUp = (session: Session) => reminder.schedule(session);
  registerWrapUpJob(worker, {
    sessions: repositories.sessions,
    rounds: coordinator,
    ideas,
    critique,
    documents: documentation,
    moderation,
    handOver,
    followUp,
    logger,
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
    housekeeping,
    leftPreviews,
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
