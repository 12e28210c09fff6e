/** The moderation service's construction: the Moderator, Scribe and TLDR agents over the session services. */
import { createModeratorAgent } from '../agents/moderator/moderator-agent.ts';
import { createScribeAgent } from '../agents/scribe/scribe-agent.ts';
import { createTldrAgent } from '../agents/tldr/tldr-agent.ts';
import type { AppConfig } from '../config/app-config.ts';
import type { Session } from '../core/domain.ts';
import type { ToolPorts } from '../core/ports.ts';
import type { SessionEnder, SpeakerHintsPort } from '../core/service-ports.ts';
import { MarkdownMirror } from '../notion/markdown-mirror.ts';
import type { CritiqueService } from '../services/critique/critique-service.ts';
import type { DeliveryService } from '../services/delivery/delivery-service.ts';
import { documentLinksOf } from '../services/documentation/document-links.ts';
import type { DocumentationService } from '../services/documentation/documentation-service.ts';
import type { IdeaLedgerService } from '../services/ideas/idea-ledger-service.ts';
import type { LimitsService } from '../services/limits/limits-service.ts';
import { ModerationService } from '../services/moderation/moderation-service.ts';
import { createSessionModerationHost } from '../services/moderation/session-moderation-host.ts';
import type { RosterService } from '../services/sessions/roster-service.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/** The session services the Moderator acts through (all built before it). */
export interface ModerationLinks {
  settings: { effectiveConfig(): AppConfig };
  delivery: DeliveryService;
  limits: LimitsService;
  lifecycle: SessionEnder;
  toolPorts: (session: Session) => ToolPorts;
  roster: RosterService;
  hints: SpeakerHintsPort;
  documentation: DocumentationService;
  ideas: IdeaLedgerService;
  critique: CritiqueService;
}

/** Builds the moderation service. */
export function buildModeration(dependencies: ServiceDependencies, links: ModerationLinks): ModerationService {
  const { config, clock, logger, repositories, models, prompts } = dependencies;
  const mirror = new MarkdownMirror(config.runtime.dataDir);
  return new ModerationService({
    host: createSessionModerationHost({
      sessions: repositories.sessions,
      messages: repositories.messages,
      delivery: links.delivery,
      limits: links.limits,
      clock,
      lifecycle: links.lifecycle,
      toolPorts: links.toolPorts,
      roster: links.roster,
      hints: links.hints,
      // The final TLDR reaches Notion after the closing is posted; the console's view holds both documents at once.
      documentLinks: async (session) => {
        const [notion, record, tldr] = await Promise.all([
          links.documentation.notionLinks(session.id),
          links.documentation.latestRecord(session.id),
          links.documentation.latestTldr(session.id),
        ]);
        return documentLinksOf(session, notion, {
          consoleUrl: `http://${config.web.host}:${config.web.port}`,
          pathOf: (id, kind) => mirror.pathOf(id, kind),
          has: { record: record !== null, tldr: tldr !== null },
        });
      },
    }),
    moderator: createModeratorAgent({ model: models.role('moderator'), prompts }),
    scribe: createScribeAgent({ model: models.role('scribe'), prompts }),
    tldr: createTldrAgent({ model: models.role('tldr'), prompts }),
    prompts,
    settings: () => links.settings.effectiveConfig().moderator,
    embed: (texts) => models.embed(texts),
    logger,
    ledgerCheck: (session) => links.ideas.afterRound(session),
    wrapUpNote: (session) => links.critique.wrapUpNote(session.id),
  });
}
