/** The critique round's construction: the ledger it reviews, the participants' models, and the room. */
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import { CritiqueService } from '../services/critique/critique-service.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/** The session services the round reaches (built before it). */
export interface CritiqueLinks {
  delivery: DeliveryService;
  roster: RosterService;
}

/** Builds the critique round service. */
export function buildCritique(dependencies: ServiceDependencies, links: CritiqueLinks): CritiqueService {
  const { clock, logger, repositories, models, prompts } = dependencies;
  return new CritiqueService({
    repository: repositories.critiques,
    ideas: repositories.ideas,
    messages: repositories.messages,
    models,
    prompts,
    participants: (session) => links.roster.active(session),
    rosterNames: () => links.roster.all().map((participant) => participant.name),
    post: async (session, speaker, text, traceId) => void (await links.delivery.post(session, speaker, text, { traceId })),
    clock,
    logger,
  });
}
