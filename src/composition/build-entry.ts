/** The entry side of the services: the session starter, the command table and the gateway every transport calls. */
import { screenHumanMessage } from '../agents/guardrails/index.ts';
import type { AppConfig } from '../config/app-config.ts';
import { CommandService } from '../services/commands/command-service.ts';
import type { ContextManager } from '../services/context/context-manager.ts';
import type { OwnedCoordinator } from '../services/scale/owned-coordinator.ts';
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import type { DocumentationService } from '../services/documentation/documentation-service.ts';
import { SessionGatewayService } from '../services/gateway/session-gateway.ts';
import type { IdeaLedgerService } from '../services/ideas/idea-ledger-service.ts';
import type { LimitsService } from '../services/limits/limits-service.ts';
import type { ModerationService } from '../services/moderation/moderation-service.ts';
import { FLOOD_BURST_WINDOW_MS, FloodGate } from '../services/sessions/flood-gate.ts';
import type { PlannerFlow } from '../services/sessions/planner-flow.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { SessionLifecycle } from '../services/sessions/session-lifecycle.ts';
import type { PresetService } from '../services/sessions/session-presets.ts';
import { SessionStarter, type Screen } from '../services/sessions/session-starter.ts';
import { PersonRevisions } from '../services/sessions/person-revisions.ts';
import { RoomClosures } from '../services/sessions/room-closures.ts';
import type { AdminSettingsPort } from '../services/commands/command-service.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/** The services the entry points route to (all built before them). */
export interface EntryLinks {
  settings: AdminSettingsPort & { effectiveConfig(): AppConfig };
  lifecycle: SessionLifecycle;
  planner: PlannerFlow;
  coordinator: OwnedCoordinator;
  delivery: DeliveryService;
  limits: LimitsService;
  context: ContextManager;
  documentation: DocumentationService;
  moderation: ModerationService;
  roster: RosterService;
  presets: PresetService;
  ideas: IdeaLedgerService;
  /** A message was stored: the Scribe's and the ledger's passes are scheduled. */
  onStored: (sessionId: string) => Promise<void>;
}

/** Builds the starter, the commands and the gateway, in that order (each uses the one before). */
export function buildEntry(dependencies: ServiceDependencies, links: EntryLinks) {
  const { config, clock, logger, repositories, events, ids } = dependencies;
  const limits = () => links.settings.effectiveConfig().limits;
  const screen: Screen = (text, sessionId, subject) =>
    screenHumanMessage(text, { maxChars: limits().maxHumanMessageChars, knownSecrets: dependencies.secrets, sessionId, subject });
  const starter = new SessionStarter({
    sessions: repositories.sessions,
    messages: repositories.messages,
    transports: dependencies.transports,
    planner: links.planner,
    presets: links.presets,
    screen,
    summarize: async (session) =>
      (await links.documentation.latestTldr(session.id)) ??
      (await links.documentation.latestRecord(session.id)) ??
      session.plan?.expandedTopic ??
      session.topic,
    startContext: () => config.startContext,
    events,
    clock,
    ids,
    logger,
  });
  const commands = new CommandService({
    ...links,
    sessions: repositories.sessions,
    starter,
    screen,
    clock,
    logger,
    commandsPerMinute: () => links.settings.effectiveConfig().discord.commandRateLimitPerMinute,
  });
  const floodGate = new FloodGate(clock, () => ({ burstWindowMs: FLOOD_BURST_WINDOW_MS, messagesPerMinute: limits().humanMessagesPerMinute }), events);
  const gateway = new SessionGatewayService({
    sessions: repositories.sessions,
    messages: repositories.messages,
    transports: dependencies.transports,
    planner: links.planner,
    turns: links.coordinator,
    commands,
    starter,
    screen,
    events,
    clock,
    logger,
    onStored: links.onStored,
    inbound: repositories.inbound,
    claimant: dependencies.worker.id,
    floodGate,
    closures: new RoomClosures({ sessions: repositories.sessions, ender: links.lifecycle, logger }),
    revisions: new PersonRevisions({ revisions: repositories.revisions, events, clock, logger, onChanged: links.onStored }),
  });
  return { starter, commands, gateway };
}
