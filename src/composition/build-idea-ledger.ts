/** The idea ledger's construction: the extractor, the Moderator's confirmations, and its room hooks. */
import { createIdeaExtractorAgent } from '../agents/ideas/idea-extractor-agent.ts';
import { createModeratorAgent } from '../agents/moderator/moderator-agent.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { Coordinator } from '../services/coordinator/coordinator.ts';
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import { IdeaLedgerService } from '../services/ideas/idea-ledger-service.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { PresetService } from '../services/sessions/session-presets.ts';
import type { SessionLifecycle } from '../services/sessions/session-lifecycle.ts';
import type { ServiceDependencies } from './build-services.ts';

/** What the ledger reaches that is built after it (read only when a ledger pass runs). */
export interface IdeaLedgerLinks {
  delivery: DeliveryService;
  settings: () => AppConfig;
  lifecycle: () => SessionLifecycle;
  coordinator: () => Coordinator;
  roster: () => RosterService;
  presets?: () => PresetService;
}

/** Builds the idea ledger service. */
export function buildIdeaLedger(dependencies: ServiceDependencies, late: IdeaLedgerLinks): IdeaLedgerService {
  const { config, clock, logger, repositories, models, prompts } = dependencies;
  return new IdeaLedgerService({
    repository: repositories.ideas,
    messages: repositories.messages,
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    clock,
    logger,
    prompts: prompts,
    extractor: createIdeaExtractorAgent({ model: models.role('scribe'), prompts: prompts }),
    moderator: createModeratorAgent({ model: models.role('moderator'), prompts: prompts }),
    embed: (texts) => models.embed(texts),
    room: {
      // Stop means stop: a proposal or invitation worded while `!stop` landed is dropped.
      postAsModerator: async (session, content) => {
        if ((await repositories.sessions.findById(session.id))?.status === 'active')
          await late.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, content);
      },
      endSession: (sessionId, reason) => late.lifecycle().end(sessionId, 'completed', reason),
      participants: (session) =>
        late
          .roster()
          .active(session)
          .map((participant) => participant.name),
      invite: (sessionId, name) => late.coordinator().invite(sessionId, name),
    },
    roleSet: (session) => late.presets?.().roles(session),
    settings: () => ({
      intervalSeconds: late.settings().scribe.intervalSeconds,
      convergenceRounds: config.environment.IDEAS_CONVERGENCE_ROUNDS,
      duplicateSimilarity: config.environment.IDEAS_DUPLICATE_SIMILARITY,
      agreementThreshold: config.environment.IDEAS_AGREEMENT_THRESHOLD,
      roleRotationRounds: config.environment.IDEAS_ROLE_ROTATION_ROUNDS,
    }),
  });
}
