import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { DocumentLink, ModerationHost } from './moderation-host.ts';

const DISCUSSION_KINDS = new Set(['human', 'participant', 'moderator']);

/** The session services a `ModerationHost` is made from; late-built ones are passed as getters. */
export interface SessionModerationHostDependencies {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  delivery: DeliveryService;
  limits: LimitsService;
  clock: Clock;
  /** The session lifecycle's `end` (built after the moderation service). */
  endSession: () => (sessionId: string, status: 'completed' | 'stopped', reason: string) => Promise<void>;
  /** The tool ports factory (built after the moderation service). */
  toolPorts: () => (session: Session) => ToolPorts;
  /** Display names of the participants who may speak in a session now (`RosterService.active`). */
  activeParticipantNames: () => (session: Session) => string[];
  /** Links to the session's documents; none when not given. */
  documentLinks?: (session: Session) => Promise<DocumentLink[]>;
  /** Optional turn-taking hints for the coordinator. */
  inviteSpeaker?: (sessionId: string, name: string) => void;
  holdSpeaker?: (sessionId: string, name: string) => void;
}

/** The `ModerationHost` over the lead's session services. */
export function createSessionModerationHost(dependencies: SessionModerationHostDependencies): ModerationHost {
  const host: ModerationHost = {
    getSession: (sessionId) => dependencies.sessions.findById(sessionId),
    recentMessages: async (sessionId, limit): Promise<ChatMessage[]> => {
      const recent = await dependencies.messages.listRecent(sessionId, limit * 2 + 10);
      return recent.filter((message) => DISCUSSION_KINDS.has(message.speaker.kind) && message.deliveryStatus !== 'withheld').slice(-limit);
    },
    postAsModerator: async (session, content) => {
      await dependencies.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, content);
    },
    saveModerationState: async (sessionId, state) => {
      await dependencies.sessions.update(sessionId, { moderationState: state }, dependencies.clock.now());
    },
    endSession: (sessionId, status, reason) => dependencies.endSession()(sessionId, status, reason),
    limitsReport: (session) => dependencies.limits.report(session),
    toolPorts: (session) => dependencies.toolPorts()(session),
    participantNames: (session) => dependencies.activeParticipantNames()(session),
    documentLinks: (session) => (dependencies.documentLinks ? dependencies.documentLinks(session) : Promise.resolve([])),
  };
  if (dependencies.inviteSpeaker) host.inviteSpeaker = dependencies.inviteSpeaker;
  if (dependencies.holdSpeaker) host.holdSpeaker = dependencies.holdSpeaker;
  return host;
}
