/** The idea ledger's construction: the extractor, the Moderator's confirmations, and its room hooks. */
import { createIdeaExtractorAgent } from '../agents/ideas/idea-extractor-agent.ts';
import { createModeratorAgent } from '../agents/moderator/moderator-agent.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { SessionEnder, SpeakerHintsPort } from '../core/service-ports.ts';
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import { IdeaLedgerService } from '../services/ideas/idea-ledger-service.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { PresetService } from '../services/sessions/session-presets.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/** The session services the ledger reaches (built before it). */
export interface IdeaLedgerLinks {
  delivery: DeliveryService;
  settings: () => AppConfig;
  lifecycle: SessionEnder;
  hints: SpeakerHintsPort;
  roster: RosterService;
  presets: PresetService;
}

/** Builds the idea ledger service and registers its jobs. */
export function buildIdeaLedger(dependencies: ServiceDependencies, links: IdeaLedgerLinks): IdeaLedgerService {
  const { config, clock, logger, repositories, models, prompts } = dependencies;
  const ideas = new IdeaLedgerService({
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
          await links.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, content);
      },
      endSession: (sessionId, reason) => links.lifecycle.end(sessionId, 'completed', reason),
      participants: (session) => links.roster.active(session).map((participant) => participant.name),
      invite: (sessionId, name) => links.hints.invite(sessionId, name),
    },
    roleSet: (session) => links.presets.roles(session),
    settings: () => ({
      intervalSeconds: links.settings().scribe.intervalSeconds,
      convergenceRounds: config.environment.IDEAS_CONVERGENCE_ROUNDS,
      duplicateSimilarity: config.environment.IDEAS_DUPLICATE_SIMILARITY,
      agreementThreshold: config.environment.IDEAS_AGREEMENT_THRESHOLD,
      roleRotationRounds: config.environment.IDEAS_ROLE_ROTATION_ROUNDS,
    }),
  });
  ideas.registerJobs(dependencies.worker);
  return ideas;
}
