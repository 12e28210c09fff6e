/** The critique round's construction: the ledger it reviews, the participants' models, and the room. */
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import type { DocumentationService } from '../services/documentation/documentation-service.ts';
import { CritiqueService } from '../services/critique/critique-service.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { ServiceDependencies } from './build-services.ts';

/** What the round reaches that is built after it (read only when a round runs). */
export interface CritiqueLinks {
  delivery: DeliveryService;
  documentation: DocumentationService;
  roster: () => RosterService;
}

/** Builds the critique round service. */
export function buildCritique(dependencies: ServiceDependencies, late: CritiqueLinks): CritiqueService {
  const { clock, logger, repositories, models, prompts } = dependencies;
  return new CritiqueService({
    repository: repositories.critiques,
    ideas: repositories.ideas,
    messages: repositories.messages,
    models,
    prompts,
    participants: (session) => late.roster().active(session),
    rosterNames: () =>
      late
        .roster()
        .all()
        .map((participant) => participant.name),
    post: async (session, speaker, text) => void (await late.delivery.post(session, speaker, text)),
    refreshDocuments: (sessionId) => late.documentation.refreshAppendix(sessionId),
    clock,
    logger,
  });
}
