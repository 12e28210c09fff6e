import type { AppConfig } from '../../config/app-config.ts';
import type { ChatMessage, ModerationState, Session } from '../../core/domain.ts';
import type { LimitsReport, RoomPostExtras, ToolPorts } from '../../core/ports.ts';
import type { DocumentLink } from '../../core/service-ports.ts';

export type { DocumentLink, EmbedFunction } from '../../core/service-ports.ts';

/** What the moderation service needs from the session services (the lead's composition root implements it). */
export interface ModerationHost {
  /** The session as stored now. */
  getSession(sessionId: string): Promise<Session | null>;
  /** The latest `limit` discussion messages (people, participants, moderator), oldest first. */
  recentMessages(sessionId: string, limit: number): Promise<ChatMessage[]>;
  /** Posts (stores, then delivers) a message in the room as the Moderator. */
  postAsModerator(session: Session, content: string, extras?: RoomPostExtras): Promise<void>;
  /** Stores the Moderator's state between checks (`sessions.moderation_state`). */
  saveModerationState(sessionId: string, state: ModerationState): Promise<void>;
  /** Ends the session (status first, then the wrap-up job that calls `ModerationService.wrapUp`). */
  endSession(sessionId: string, status: 'completed' | 'stopped', reason: string): Promise<void>;
  /** Usage against limits. */
  limitsReport(session: Session): Promise<LimitsReport>;
  /** The tool ports of the session (the run context of the Moderator, Scribe and TLDR). */
  toolPorts(session: Session): ToolPorts;
  /** Display names of the AI participants currently taking part (enabled, not benched). */
  participantNames(session: Session): string[];
  /** Links to the session's documents (Notion pages or local mirror views). */
  documentLinks(session: Session): Promise<DocumentLink[]>;
  /** Optional: let `name` speak in the next round (after an invitation). */
  inviteSpeaker?(sessionId: string, name: string): void;
  /** Optional: skip `name` in the next round (after a hold). */
  holdSpeaker?(sessionId: string, name: string): void;
}

/** The Moderator's knobs, read per check so `!config` changes apply at once. */
export type ModeratorSettings = AppConfig['moderator'];
