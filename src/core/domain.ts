/** Plain data of the brainstorm domain, shared by services, agents and transports (types only). */
import type { z } from 'zod';
import type { CostSource } from './cost.ts';
import type { sessionParametersSchema, sessionPlanSchema } from './schemas.ts';

/** The life cycle of a session. */
export type SessionStatus = 'planning' | 'awaiting_approval' | 'active' | 'paused' | 'completed' | 'stopped' | 'cancelled';

/** States from which nothing more happens. */
export const FINISHED_STATUSES: readonly SessionStatus[] = ['completed', 'stopped', 'cancelled'];

/** States in which a session is still going (it can be stopped; its room is read back after a restart). */
export const LIVE_STATUSES: readonly SessionStatus[] = ['planning', 'awaiting_approval', 'active', 'paused'];

/** States before the discussion: the Planner asks and proposes, a person approves. */
export const PLANNING_STATUSES: readonly SessionStatus[] = ['planning', 'awaiting_approval'];

/** Every status. */
export const ALL_STATUSES: readonly SessionStatus[] = [...LIVE_STATUSES, ...FINISHED_STATUSES];

/**
 * The session's transitions, defined once: the statuses each may start from. The lifecycle makes each one a
 * conditional update on these; the command table offers a command in the states its transition starts from.
 */
export const SESSION_TRANSITIONS = {
  /** The Planner proposed a plan (or a revised one). */
  propose: { from: ['planning', 'awaiting_approval'], to: 'awaiting_approval' },
  /** An approval found nothing to resume: plan again. */
  replan: { from: ['awaiting_approval'], to: 'planning' },
  /** The plan is approved: the discussion starts. */
  approve: { from: ['awaiting_approval', 'planning'], to: 'active' },
  pause: { from: ['active'], to: 'paused' },
  /** `!continue`: also from active, where it resets the loop guard. */
  resume: { from: ['active', 'paused'], to: 'active' },
  /** A stop, a limit, a timeout or the Moderator (a session not yet discussing ends as cancelled). */
  end: { from: LIVE_STATUSES, to: FINISHED_STATUSES },
} as const satisfies Record<string, { from: readonly SessionStatus[]; to: SessionStatus | readonly SessionStatus[] }>;

/** Who said something. */
export type SpeakerKind = 'human' | 'participant' | 'planner' | 'moderator' | 'scribe' | 'tldr' | 'system';

/** A speaker as shown in the room: its kind, display name, and optional id and avatar. */
export interface Speaker {
  kind: SpeakerKind;
  name: string;
  id?: string;
  avatarUrl?: string;
}

/** The limits a plan sets for its session, inside the admin bounds (the zod schema is the source). */
export type SessionParameters = z.infer<typeof sessionParametersSchema>;

/** The Planner's plan, approved by a person before the discussion starts (the zod schema is the source). */
export type SessionPlan = z.infer<typeof sessionPlanSchema>;

/** What the Planner has asked and been told so far. */
export interface PlannerState {
  questions: string[];
  answers: { author: string; text: string }[];
  revisionRequests: string[];
  questionRounds: number;
  /** What an `!explore` session starts from: the parent's summary, which the Planner plans with. */
  seed?: string;
  /** The preset a person chose (`!preset`, `preset:`): it wins over the Planner's pick. */
  preset?: { name: string; by: string };
  /** The conversation the session was started inside: its last messages, attributed by name and screened. */
  conversation?: StartingConversation;
}

/** What a session started inside a conversation read of it. */
export interface StartingConversation {
  /** `[Name]: text` lines, oldest first. */
  text: string;
  messages: number;
  speakers: string[];
}

/** What the Moderator keeps between checks. */
export interface ModerationState {
  driftWarnings: number;
  lastCheckAtMessage: number;
  lastVerdict?: string;
  qualityScore?: number;
}

/** A session as the services see it. */
export interface Session {
  id: string;
  parentId: string | null;
  transport: string;
  roomId: string;
  roomUrl: string | null;
  originChannelId: string | null;
  topic: string;
  status: SessionStatus;
  createdBy: { id: string; name: string };
  plan: SessionPlan | null;
  plannerState: PlannerState;
  moderationState: ModerationState;
  disabledParticipants: string[];
  messageCount: number;
  totalTokens: number;
  totalCostUsd: number;
  aiRoundsSinceHuman: number;
  endReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Where the time limit counts from: moved forward by paused time, restarted by `!reset`. */
  clockStartedAt: Date | null;
  /** When the current pause began (null unless paused). */
  pausedAt: Date | null;
  /** The number of the last idea-ledger pass (0: none yet): the ledger changed when it moved. */
  ledgerPasses: number;
  /** Participants resting after a repeat, and those the room was told repeat themselves (none when absent). */
  repeats?: SessionRepeats;
}

/** Who sits out the AI rounds after repeating itself, and which repeaters the room was told of (participant ids). */
export interface SessionRepeats {
  resting: string[];
  announced: string[];
}

/** A web page a participant's answer drew on: a `url_citation` of OpenRouter's web search, never text the model wrote. */
export interface Citation {
  url: string;
  title: string;
}

/** Where a message stands on its way to the room. */
export type DeliveryStatus = 'received' | 'pending' | 'delivered' | 'withheld' | 'internal';

/** One message of a session. */
export interface ChatMessage {
  id: number;
  sessionId: string;
  /** The message's place in its session (1, 2, 3…): what "#12" cites. */
  number: number;
  speaker: Speaker;
  role: 'user' | 'assistant' | 'system';
  text: string;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Where `costUsd` came from (absent: no model call, or recorded before sources were). */
  costSource?: CostSource;
  replyTo: number[];
  traceId: string | null;
  deliveryStatus: DeliveryStatus;
  externalIds: string[];
  externalUrl: string | null;
  createdAt: Date;
  /** True for an answer cut short (its text ends with the interrupted mark). */
  interrupted?: boolean;
  /** The participants a person's message answered directly (a reply to one of theirs), when it did. */
  addressedTo?: string[];
  /** True for a person's message they edited after posting (the text is the edited one). */
  edited?: boolean;
  /** Set only on the event announcing that its author deleted it (it is gone from every read). */
  deleted?: boolean;
  /** The web pages the answer cites (web-grounded participants only). */
  citations?: Citation[];
  /** How many web searches OpenRouter ran for the answer (`usage.server_tool_use.web_search_requests`). */
  webSearches?: number;
}

/** A person in a room, as the transport knows them. */
export interface Author {
  id: string;
  name: string;
  isAdmin: boolean;
}
