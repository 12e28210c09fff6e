import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { DocumentLink, SessionEnder, SpeakerHintsPort } from '../../core/service-ports.ts';
import type { ModerationHost } from './moderation-host.ts';

const DISCUSSION_KINDS = new Set(['human', 'participant', 'moderator']);

/** The session services a `ModerationHost` is made from (all built before the moderation service). */
export interface SessionModerationHostDependencies {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  delivery: DeliveryService;
  limits: LimitsService;
  clock: Clock;
  /** Ends sessions (the session lifecycle). */
  lifecycle: SessionEnder;
  /** The tool ports of a session. */
  toolPorts: (session: Session) => ToolPorts;
  /** The participants who may speak in a session now (`RosterService.active`). */
  roster: { active(session: Session): { name: string }[] };
  /** Links to the session's documents. */
  documentLinks: (session: Session) => Promise<DocumentLink[]>;
  /** The Moderator's invitations and holds for the next round. */
  hints: SpeakerHintsPort;
}

/** The `ModerationHost` over the session services. */
export function createSessionModerationHost(dependencies: SessionModerationHostDependencies): ModerationHost {
  return {
    getSession: (sessionId) => dependencies.sessions.findById(sessionId),
    recentMessages: async (sessionId, limit): Promise<ChatMessage[]> => {
      const recent = await dependencies.messages.listRecent(sessionId, limit * 2 + 10);
      return recent.filter((message) => DISCUSSION_KINDS.has(message.speaker.kind) && message.deliveryStatus !== 'withheld').slice(-limit);
    },
    postAsModerator: async (session, content, extras) => {
      await dependencies.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, content, extras);
    },
    saveModerationState: async (sessionId, state) => {
      await dependencies.sessions.update(sessionId, { moderationState: state }, dependencies.clock.now());
    },
    endSession: (sessionId, status, reason) => dependencies.lifecycle.end(sessionId, status, reason),
    limitsReport: (session) => dependencies.limits.report(session),
    toolPorts: dependencies.toolPorts,
    participantNames: (session) => dependencies.roster.active(session).map((participant) => participant.name),
    documentLinks: dependencies.documentLinks,
    inviteSpeaker: (sessionId, name) => dependencies.hints.invite(sessionId, name),
    holdSpeaker: (sessionId, name) => dependencies.hints.hold(sessionId, name),
  };
}
