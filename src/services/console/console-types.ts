import type { TraceFilter } from '../../repositories/traces-repository.ts';
/** Plain data the web console shows (sent as JSON); built by ConsoleQueries from the repositories. */
import type { ChatMessage, SessionPlan, SessionStatus } from '../../core/domain.ts';
import type { CostSource } from '../../core/cost.ts';
import type { CostNote } from './cost-note.ts';

/** One row of the sessions list. */
export interface SessionSummary {
  id: string;
  topic: string;
  status: SessionStatus;
  transport: string;
  roomId: string;
  roomUrl: string | null;
  participants: string[];
  messageCount: number;
  totalTokens: number;
  totalCostUsd: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

/** One limit of a session drawn as a bar. */
export interface LimitBar {
  name: 'messages' | 'tokens' | 'cost' | 'minutes';
  used: number;
  limit: number;
  /** 0..100, capped. */
  percent: number;
}

/** The Scribe record or the TLDR as the console shows it. */
export interface DocumentView {
  kind: 'record' | 'tldr';
  version: number;
  content: string;
  updatedAt: string;
}

/** Everything the session page shows except the transcript. */
export interface SessionDetail {
  session: SessionSummary & {
    plan: SessionPlan | null;
    endReason: string | null;
    createdBy: string;
    plannerQuestions: string[];
    /** The session this one was explored from (`!explore`), and the sessions explored from this one. */
    parentId: string | null;
    parentTopic: string | null;
    explorations: { id: string; topic: string }[];
  };
  limits: LimitBar[];
  record: DocumentView | null;
  tldr: DocumentView | null;
  /** Tokens and cost per participant (and role agent) over the whole session. */
  usage: ParticipantTotals[];
  /** Where the session's cost came from (null: no model call recorded one). */
  cost: CostNote | null;
}

/** A message of the transcript (the domain message, dates as ISO text). */
export type TranscriptMessage = Omit<ChatMessage, 'createdAt'> & { createdAt: string };

/** What a search across sessions finds: sessions by topic, messages by text (newest first). */
export interface SearchResult {
  sessions: SessionSummary[];
  messages: { sessionTopic: string; message: TranscriptMessage }[];
}

/** What the trace search filters on (the repository's filter, without paging). */
export type TraceSearch = Omit<TraceFilter, 'before'>;

/** Token and cost totals. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** One trace in the list (one turn). */
export interface TraceListItem extends UsageTotals {
  id: string;
  sessionId: string | null;
  sessionTopic: string | null;
  name: string;
  startedAt: string;
  durationMs: number | null;
  spanCount: number;
  errorCount: number;
}

/** The types of span the waterfall draws. */
export type SpanKind = 'agent' | 'generation' | 'function' | 'handoff' | 'guardrail' | 'custom' | 'task' | 'turn' | 'other';

/** One span of the waterfall, with its place in the tree and everything its detail panel shows. */
export interface SpanView extends UsageTotals {
  id: string;
  parentId: string | null;
  kind: SpanKind;
  name: string;
  depth: number;
  startOffsetMs: number;
  durationMs: number | null;
  /** The agent this span ran under (its own name for an agent span). */
  agentName: string | null;
  model: string | null;
  /** Where the span's cost came from (an ended generation), else null. */
  costSource: CostSource | null;
  input: unknown;
  output: unknown;
  /** True when the span recorded an input or output (the trace view may leave them out; see getSpan). */
  hasPayload: boolean;
  error: { message: string; data: unknown } | null;
  /** Why a person or a handover cut the span's turn (`stopped`, `preempted`, `handed_over`): not an error. */
  cut: string | null;
  handoff: { from: string | null; to: string | null } | null;
  guardrail: { name: string; triggered: boolean } | null;
  data: Record<string, unknown>;
  /** The message this span produced, if any. */
  message: { id: number; sessionId: string; externalUrl: string | null; speakerName: string } | null;
}

/** Totals of one participant (agent) within a trace. */
export interface ParticipantTotals extends UsageTotals {
  name: string;
  generations: number;
}

/** A whole trace as the viewer draws it. */
export interface TraceDetail {
  trace: {
    id: string;
    sessionId: string | null;
    name: string;
    groupId: string | null;
    metadata: Record<string, unknown>;
    startedAt: string;
    endedAt: string | null;
    durationMs: number;
  };
  spans: SpanView[];
  totals: UsageTotals & { spanCount: number; errorCount: number; cutCount: number; guardrailTrips: number };
  participants: ParticipantTotals[];
}
