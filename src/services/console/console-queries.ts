/** The console's read-only view of the store: the web layer asks here and never touches a repository. */
import type { DocumentsRepository, StoredDocument } from '../../repositories/documents-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type {
  DocumentView,
  LimitBar,
  SearchResult,
  SessionDetail,
  SessionSummary,
  SpanView,
  TraceDetail,
  TraceListItem,
  TraceSearch,
  TranscriptMessage,
} from './console-types.ts';
import { buildTraceDetail, type SpanRecord, type TraceRecord } from './trace-view-model.ts';
import type { IdeasRepository } from '../../repositories/ideas-repository.ts';
import { ideaPanel, type IdeaPanelView } from './idea-panel.ts';
import type { CritiqueRepository } from '../../repositories/critique-repository.ts';
import { critiquePanel, type CritiquePanelView } from './critique-panel.ts';
import type { CostSourceTotals } from '../../repositories/traces-repository.ts';
import { costNote } from './cost-note.ts';

/** A trace in a search result, with the totals the store may have computed. */
export interface TraceListRecord extends TraceRecord {
  firstSpanAt?: Date | null;
  lastSpanEnd?: Date | null;
  spanCount?: number;
  errorCount?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/** The trace store the console reads (implemented by the traces repository or an adapter over it). */
export interface TraceStore {
  listTraces(filter: { sessionId?: string; text?: string; agent?: string; model?: string; errorsOnly?: boolean; limit: number }): Promise<TraceListRecord[]>;
  getTrace(id: string): Promise<{ trace: TraceRecord; spans: SpanRecord[] } | null>;
  /** Tokens and cost per agent of a session, from its generation spans. */
  totalsByAgent(sessionId: string): Promise<{ agent: string; generations: number; inputTokens: number; outputTokens: number; costUsd: number }[]>;
  /** A session's cost by model and source (absent: the console names no source). */
  costSources?(sessionId: string): Promise<CostSourceTotals[]>;
}

/** The repositories ConsoleQueries reads. */
export interface ConsoleRepositories {
  sessions: Pick<SessionsRepository, 'listRecent' | 'findById' | 'findByRoom'>;
  messages: Pick<MessagesRepository, 'listForSession' | 'countBySpeaker' | 'search'>;
  documents: Pick<DocumentsRepository, 'find'>;
  traces: TraceStore;
  /** The idea ledger (absent: no ideas panel). */
  ideas?: Pick<IdeasRepository, 'ledger'>;
  /** Critique rounds (absent: no critique panel). */
  critiques?: Pick<CritiqueRepository, 'find'>;
}

const MAX_TRACE_RESULTS = 200;
const MAX_SEARCH_RESULTS = 100;

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function toTranscript(message: ChatMessage): TranscriptMessage {
  return { ...message, createdAt: message.createdAt.toISOString() };
}

function toDocumentView(document: StoredDocument | null): DocumentView | null {
  if (!document) return null;
  return { kind: document.kind, version: document.version, content: document.content, updatedAt: document.updatedAt.toISOString() };
}

function bar(name: LimitBar['name'], used: number, limit: number): LimitBar {
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 1000) / 10) : 0;
  return { name, used, limit, percent };
}

/** A trace's duration as its detail shows it: from its first start to its last end, spans included. */
function durationOf(record: TraceListRecord): number | null {
  if (!record.endedAt) return null;
  const start = Math.min(record.startedAt.getTime(), record.firstSpanAt?.getTime() ?? Infinity);
  return Math.max(record.endedAt.getTime(), record.lastSpanEnd?.getTime() ?? 0) - start;
}

/** Read-only queries behind every console page. */
export class ConsoleQueries {
  constructor(
    private readonly repositories: ConsoleRepositories,
    private readonly clock: Clock,
  ) {}

  /** The newest sessions with their participants and usage. */
  async listSessions(limit = 100): Promise<SessionSummary[]> {
    const sessions = await this.repositories.sessions.listRecent(limit);
    return Promise.all(sessions.map((session) => this.summarise(session)));
  }

  /** One session's page data (plan, limits, record, TLDR), or null. */
  async getSession(sessionId: string): Promise<SessionDetail | null> {
    const session = await this.repositories.sessions.findById(sessionId);
    if (!session) return null;
    return this.detail(session);
  }

  /** A session's idea ledger and its figures, or null (no such session, or no ledger in this build). */
  async getIdeas(sessionId: string): Promise<IdeaPanelView | null> {
    const session = await this.repositories.sessions.findById(sessionId);
    return session && this.repositories.ideas ? ideaPanel(this.repositories.ideas, session) : null;
  }

  /** A session's critique round (aggregate ranking, ballots), or null when it had none. */
  async getCritique(sessionId: string): Promise<CritiquePanelView | null> {
    return this.repositories.critiques ? critiquePanel(this.repositories.critiques, sessionId) : null;
  }

  /** The session living in a local room, or null while it is being created. */
  async getSessionByRoom(transport: string, roomId: string): Promise<SessionDetail | null> {
    const session = await this.repositories.sessions.findByRoom(transport, roomId);
    return session ? this.detail(session) : null;
  }

  /** Sessions whose topic, and messages whose text, contain `text`: what the sessions page's search finds. */
  async search(text: string): Promise<SearchResult> {
    const needle = text.trim().toLowerCase();
    if (!needle) return { sessions: [], messages: [] };
    const sessions = (await this.repositories.sessions.listRecent(500)).filter((session) => session.topic.toLowerCase().includes(needle));
    const messages = await this.repositories.messages.search(text.trim(), MAX_SEARCH_RESULTS);
    const topics = new Map<string, string>();
    for (const message of messages) {
      if (!topics.has(message.sessionId))
        topics.set(message.sessionId, (await this.repositories.sessions.findById(message.sessionId))?.topic ?? message.sessionId);
    }
    return {
      sessions: await Promise.all(sessions.slice(0, MAX_SEARCH_RESULTS).map((session) => this.summarise(session))),
      messages: messages.map((message) => ({ sessionTopic: topics.get(message.sessionId) ?? message.sessionId, message: toTranscript(message) })),
    };
  }

  /** The transcript of a session, oldest first. */
  async listMessages(sessionId: string, afterId?: number): Promise<TranscriptMessage[]> {
    const messages = await this.repositories.messages.listForSession(sessionId, afterId === undefined ? {} : { afterId });
    return messages.map(toTranscript);
  }

  /** Traces matching a search, newest first, each with its session's topic. */
  async searchTraces(search: TraceSearch): Promise<TraceListItem[]> {
    const limit = Math.min(Math.max(search.limit ?? 100, 1), MAX_TRACE_RESULTS);
    const records = await this.repositories.traces.listTraces({ ...search, limit });
    const topics = new Map<string, string | null>();
    for (const record of records) {
      if (record.sessionId && !topics.has(record.sessionId))
        topics.set(record.sessionId, (await this.repositories.sessions.findById(record.sessionId))?.topic ?? null);
    }
    return records.map((record) => ({
      id: record.id,
      sessionId: record.sessionId,
      sessionTopic: record.sessionId ? (topics.get(record.sessionId) ?? null) : null,
      name: record.name,
      startedAt: record.startedAt.toISOString(),
      durationMs: durationOf(record),
      spanCount: record.spanCount ?? 0,
      errorCount: record.errorCount ?? 0,
      inputTokens: record.inputTokens ?? 0,
      outputTokens: record.outputTokens ?? 0,
      costUsd: record.costUsd ?? 0,
    }));
  }

  /**
   * One trace as the waterfall draws it, linked to the messages it produced; null when unknown. Without
   * `payloads` each span's input, output and raw data are left out (a long session's prompts would make
   * the page download megabytes); `getSpan` gives them for the span a person opens.
   */
  async getTrace(traceId: string, options: { payloads: boolean } = { payloads: true }): Promise<TraceDetail | null> {
    const detail = await this.buildTrace(traceId);
    if (!detail || options.payloads) return detail;
    return { ...detail, spans: detail.spans.map((span) => ({ ...span, input: null, output: null, data: {} })) };
  }

  /** One span of a trace with its input, output and raw data, or null. */
  async getSpan(traceId: string, spanId: string): Promise<SpanView | null> {
    const detail = await this.buildTrace(traceId);
    return detail?.spans.find((span) => span.id === spanId) ?? null;
  }

  private async buildTrace(traceId: string): Promise<TraceDetail | null> {
    const stored = await this.repositories.traces.getTrace(traceId);
    if (!stored) return null;
    const sessionId = stored.trace.sessionId;
    const messages = sessionId ? await this.repositories.messages.listForSession(sessionId) : [];
    const linkable = messages.map((message) => ({
      id: message.id,
      sessionId: message.sessionId,
      speakerName: message.speaker.name,
      traceId: message.traceId,
      externalUrl: message.externalUrl,
    }));
    return buildTraceDetail(stored.trace, stored.spans, linkable);
  }

  /** The stored trace exactly as recorded, for export. */
  async exportTrace(traceId: string): Promise<{ trace: TraceRecord; spans: SpanRecord[] } | null> {
    return this.repositories.traces.getTrace(traceId);
  }

  private async summarise(session: Session): Promise<SessionSummary> {
    const speakers = await this.repositories.messages.countBySpeaker(session.id);
    return {
      id: session.id,
      topic: session.topic,
      status: session.status,
      transport: session.transport,
      roomId: session.roomId,
      roomUrl: session.roomUrl,
      participants: speakers
        .filter((entry) => entry.kind === 'participant')
        .map((entry) => entry.speaker)
        .sort(),
      // Every message of the transcript, as the session page's header counts them (the limit counts participants' only).
      messageCount: speakers.reduce((sum, entry) => sum + entry.messages, 0),
      totalTokens: session.totalTokens,
      totalCostUsd: session.totalCostUsd,
      createdAt: session.createdAt.toISOString(),
      startedAt: iso(session.startedAt),
      endedAt: iso(session.endedAt),
    };
  }

  private async detail(session: Session): Promise<SessionDetail> {
    const [summary, record, tldr, usage, parent, recent, costs] = await Promise.all([
      this.summarise(session),
      this.repositories.documents.find(session.id, 'record'),
      this.repositories.documents.find(session.id, 'tldr'),
      this.repositories.traces.totalsByAgent(session.id),
      session.parentId ? this.repositories.sessions.findById(session.parentId) : Promise.resolve(null),
      this.repositories.sessions.listRecent(500),
      this.repositories.traces.costSources?.(session.id) ?? Promise.resolve([]),
    ]);
    const explorations = recent.filter((entry) => entry.parentId === session.id).map((entry) => ({ id: entry.id, topic: entry.topic }));
    return {
      session: {
        ...summary,
        plan: session.plan,
        endReason: session.endReason,
        createdBy: session.createdBy.name,
        plannerQuestions: session.plannerState.questions,
        parentId: session.parentId,
        parentTopic: parent?.topic ?? null,
        explorations,
      },
      limits: this.limits(session),
      record: toDocumentView(record),
      tldr: toDocumentView(tldr),
      usage: usage.map(({ agent, ...totals }) => ({ name: agent, ...totals })),
      cost: costNote(costs),
    };
  }

  private limits(session: Session): LimitBar[] {
    const parameters = session.plan?.parameters;
    if (!parameters) return [];
    const end = session.endedAt ?? this.clock.now();
    const minutes = session.startedAt ? Math.max(0, (end.getTime() - session.startedAt.getTime()) / 60_000) : 0;
    return [
      bar('messages', session.messageCount, parameters.maxMessages),
      bar('tokens', session.totalTokens, parameters.maxTokens),
      bar('cost', session.totalCostUsd, parameters.maxCostUsd),
      bar('minutes', Math.round(minutes * 10) / 10, parameters.timeoutMinutes),
    ];
  }
}
