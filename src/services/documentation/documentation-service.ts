/**
 * Documentation: the Scribe record and the TLDR of every session, durable in the outbox, mirrored to
 * `DATA_DIR/docs`, and written to Notion when it is configured. Implements `DocumentationPort`.
 */
import type { ClaimedJob } from '../../repositories/jobs-repository.ts';
import type { StoredDocument } from '../../repositories/documents-repository.ts';
import { MarkdownMirror } from '../../notion/markdown-mirror.ts';
import { renderTldrMarkdown } from '../../agents/tldr/tldr-text.ts';
import type { JobHandler, JobOutcome } from '../jobs/job-types.ts';
import { PendingDueTimes } from '../jobs/pending-due-times.ts';
import type { DocumentationPort, RecalledSession, ToolPorts } from '../../core/ports.ts';
import { recordable } from '../../agents/scribe/scribe-input.ts';
import { runScribePass, runTldrPass, type PassEffects } from './documentation-passes.ts';
import { DOCUMENTATION_JOB_KINDS, type DocumentationDependencies } from './documentation-types.ts';
import { enqueueNotionJob } from './document-delays.ts';
import { scheduleTldr, tldrQueue } from './tldr-schedule.ts';
import { runNotionRow, runNotionSync } from './notion-jobs.ts';
import { recallSessions, rememberSession } from './recall.ts';
import { adoptFromNotion, PEOPLE_EDITED_IN_NOTION, refreshFromNotion, TAKEN_FROM_NOTION, takeUpEditedTldr } from './people-edits.ts';
import { withTicksKept } from '../../core/next-steps.ts';
import { DocumentWrites } from './document-writes.ts';

/** A session document kind. */
export type DocumentKind = 'record' | 'tldr';

/** Where a job worker takes its handlers from (the lead's `JobWorker` fits). */
export interface JobRegistry {
  register(kind: string, handler: JobHandler): void;
}

/** A busy session still gets a record at least every this many Scribe intervals (the debounce's bound). */
const SCRIBE_MAX_WAIT_INTERVALS = 3;

/** Scribe (and TLDR) passes of a session have their own queue, so one can be run (and awaited) on its own. */
const scribeQueue = (sessionId: string) => `scribe:${sessionId}`;

/** The documentation service. */
export class DocumentationService implements DocumentationPort {
  private readonly mirror: MarkdownMirror;
  private readonly writes: DocumentWrites;
  private readonly effects: PassEffects;
  /** Urgent passes under way, so callers asking at once all wait for the same pass. */
  private readonly urgent = new Map<string, Promise<void>>();
  /** The last debounce this process sent for each session's Scribe pass: when, and when the pass was then due. */
  private readonly pendingPasses = new PendingDueTimes();

  constructor(private readonly deps: DocumentationDependencies) {
    this.mirror = new MarkdownMirror(deps.settings.dataDir);
    this.writes = new DocumentWrites(deps, this.mirror);
    this.effects = {
      store: (sessionId, kind, markdown, metadata) => this.storeWritten(sessionId, kind, markdown, metadata),
      scheduleTldr: (sessionId) => scheduleTldr(this.deps, sessionId),
      remember: (sessionId, text) => rememberSession(this.deps, sessionId, text),
      adopt: (sessionId, kind, markdown, metadata, after) => adoptFromNotion(this.deps, this.mirror, sessionId, kind, markdown, metadata, after),
    };
  }

  /** Registers the `scribe`, `tldr`, `notion_sync` and `notion_session_row` handlers. */
  registerJobs(registry: JobRegistry): void {
    for (const [kind, handler] of Object.entries(this.handlers())) registry.register(kind, handler);
  }

  /** The job handlers by kind. */
  handlers(): Record<string, JobHandler> {
    const notion = this.deps.notion;
    const withoutNotion = async (): Promise<JobOutcome> => ({ status: 'done' });
    return {
      [DOCUMENTATION_JOB_KINDS.scribe]: (job, signal) => {
        // The pending pass is running: the next message must queue another.
        this.pendingPasses.started(String(job.payload.sessionId), this.deps.clock.now());
        return runScribePass(this.deps, this.effects, job, signal);
      },
      [DOCUMENTATION_JOB_KINDS.tldr]: (job, signal) => runTldrPass(this.deps, this.effects, (sessionId) => this.mirror.read(sessionId, 'record'), job, signal),
      [DOCUMENTATION_JOB_KINDS.notionSync]: notion
        ? (job: ClaimedJob, signal: AbortSignal) => runNotionSync(this.deps, notion, job, signal, (document) => this.flagPeoplesEdits(document))
        : withoutNotion,
      [DOCUMENTATION_JOB_KINDS.notionRow]: notion ? (job: ClaimedJob, signal: AbortSignal) => runNotionRow(this.deps, notion, job, signal) : withoutNotion,
    };
  }

  /**
   * Called after every stored message: a Scribe pass `SCRIBE_UPDATE_INTERVAL` after the latest message
   * (one pending per session; each message moves it), never more than a few intervals after the first.
   * Messages close together (a person's and the round answering it) move it once: within a tenth of an interval of
   * the last move, while the pass is still well ahead, the pass would move by so little that the statement is not
   * sent (the pass runs at most that much early). A pass due later than this message's own (the interval was just
   * shortened with `!config`) is always moved in.
   */
  async onMessage(sessionId: string): Promise<void> {
    const now = this.deps.clock.now();
    const intervalMs = this.deps.settings.scribeIntervalSeconds * 1000;
    const runAt = new Date(now.getTime() + intervalMs);
    const last = this.pendingPasses.current(sessionId);
    if (this.pendingPasses.covers(last, now, runAt) && now.getTime() - last.sentAt < intervalMs / 10) return;
    const job = { kind: DOCUMENTATION_JOB_KINDS.scribe, payload: { sessionId }, runAt, dedupeKey: sessionId, queue: scribeQueue(sessionId), sessionId };
    const dueAt = await this.deps.jobs.enqueueOrDebounce(job, intervalMs * SCRIBE_MAX_WAIT_INTERVALS, now);
    this.pendingPasses.learn(sessionId, last, now, dueAt);
  }

  /** Called when a session is created or changes state (status, counts): updates its Notion row. */
  async onSessionChanged(sessionId: string): Promise<void> {
    if (!this.deps.notion) return;
    await this.enqueueNotion(DOCUMENTATION_JOB_KINDS.notionRow, sessionId, { sessionId }, sessionId);
  }

  /**
   * Asks for a Scribe pass soon (debounced) or now (`urgent`, e.g. the context is nearly full): an urgent
   * request returns once the pass has run, so the turn that needed it reads the new record.
   */
  async requestRecord(sessionId: string, options: { urgent: boolean }): Promise<void> {
    if (!options.urgent) return this.onMessage(sessionId);
    const running = this.urgent.get(sessionId);
    if (running) return running;
    const pass = this.runUrgentPass(sessionId).finally(() => this.urgent.delete(sessionId));
    this.urgent.set(sessionId, pass);
    return pass;
  }

  /** The newest record (local copy: the database, else the mirror). */
  async latestRecord(sessionId: string): Promise<string | null> {
    return (await this.deps.documents.find(sessionId, 'record'))?.content ?? (await this.mirror.read(sessionId, 'record'));
  }

  /** The newest TLDR as markdown (for `!summary`). */
  async latestTldr(sessionId: string): Promise<string | null> {
    return (await this.deps.documents.find(sessionId, 'tldr'))?.content ?? (await this.mirror.read(sessionId, 'tldr'));
  }

  /**
   * `!summary`: the newest TLDR, made afresh first when it is older than the last messages (a Scribe pass,
   * the record's sync to Notion, then the TLDR pass, all awaited), else as people may have edited it in Notion.
   */
  async freshSummary(sessionId: string): Promise<string | null> {
    if (this.deps.runQueue && (await this.summaryIsStale(sessionId))) {
      await this.requestRecord(sessionId, { urgent: true });
      const now = this.deps.clock.now();
      await this.deps.jobs.expedite(DOCUMENTATION_JOB_KINDS.tldr, sessionId, now, now);
      if (this.deps.notion) await this.deps.runQueue(`notion:${sessionId}`);
      await this.deps.runQueue(tldrQueue(sessionId));
    } else {
      await takeUpEditedTldr(this.deps, this.effects.adopt, sessionId);
    }
    return this.latestTldr(sessionId);
  }

  /** Re-reads the record from Notion (`!refresh`); a person's edits there become the newest local version. */
  async refreshRecord(sessionId: string): Promise<string | null> {
    return (await refreshFromNotion(this.deps, this.effects.adopt, sessionId)) ?? this.latestRecord(sessionId);
  }

  /** A record a person changed by command (`!done`): stored as their edit, which the next Scribe pass is told to keep. */
  async editPeoplesRecord(sessionId: string, edit: (record: string) => string | null): Promise<boolean> {
    const stored = await this.writes.onNewestRecord(sessionId, (latest) => {
      const edited = latest ? edit(latest.content) : null;
      return latest && edited !== null ? { content: edited, metadata: { ...latest.metadata, source: 'person', [TAKEN_FROM_NOTION]: true } } : null;
    });
    return stored !== null;
  }

  /** Stores a document an agent wrote (`update_notion`); a record written so covers every message so far. */
  async writeDocument(sessionId: string, kind: DocumentKind, written: string): Promise<void> {
    const metadata: Record<string, unknown> = { source: 'agent' };
    if (kind === 'record') metadata.lastMessageId = (await this.deps.messages.listForSession(sessionId)).at(-1)?.id ?? 0;
    if (kind === 'tldr') metadata.recordVersion = (await this.deps.documents.find(sessionId, 'record'))?.version ?? 0;
    await this.storeWritten(sessionId, kind, written, metadata);
    if (kind === 'tldr') await rememberSession(this.deps, sessionId, `${(await this.deps.sessions.findById(sessionId))?.topic ?? ''}\n\n${written}`);
  }

  /** Reads a document for an agent (`read_notion`): from Notion when it holds the newest version, else locally. */
  async readDocument(sessionId: string, kind: DocumentKind): Promise<string | null> {
    const local = await this.deps.documents.find(sessionId, kind);
    if (this.deps.notion && local && local.syncedVersion >= local.version) {
      try {
        return (await this.deps.notion.readDocument(sessionId, kind)) ?? local.content;
      } catch (error) {
        this.deps.logger.warn(
          { sessionId, kind, err: error instanceof Error ? error.message : String(error) },
          'could not read from Notion; using the local copy',
        );
      }
    }
    return local?.content ?? (await this.mirror.read(sessionId, kind));
  }

  /** Stores the newest record and TLDR again, so their appended sections (the critique round's) are current. */
  async refreshAppendix(sessionId: string): Promise<void> {
    for (const kind of ['record', 'tldr'] as const) {
      const current = await this.deps.documents.find(sessionId, kind);
      if (current) await this.writes.store(sessionId, kind, current.content, current.metadata);
    }
  }

  /** Past sessions on similar topics (the Planner's `recall_sessions`). */
  async recallSessions(query: string, limit: number, excludeSessionId?: string): Promise<RecalledSession[]> {
    return recallSessions(this.deps, query, limit, excludeSessionId);
  }

  /** `DocumentStorePort.write` of the session services' tool ports. */
  write(sessionId: string, kind: DocumentKind, markdown: string): Promise<void> {
    return this.writeDocument(sessionId, kind, markdown);
  }

  /** `DocumentStorePort.read` of the session services' tool ports. */
  read(sessionId: string, kind: DocumentKind): Promise<string | null> {
    return this.readDocument(sessionId, kind);
  }

  /** `DocumentStorePort.recall` of the session services' tool ports. */
  recall(query: string, limit: number, excludeSessionId: string): Promise<RecalledSession[]> {
    return this.recallSessions(query, limit, excludeSessionId);
  }

  /** The documentation part of a session's `ToolPorts`, for the composition root to merge. */
  toolPorts(sessionId: string, title = 'TLDR'): Pick<ToolPorts, 'writeDocument' | 'writeSummary' | 'readDocument' | 'recallSessions'> {
    return {
      writeDocument: (kind, markdown) => this.writeDocument(sessionId, kind, markdown),
      writeSummary: (summary) => this.writeDocument(sessionId, 'tldr', renderTldrMarkdown(summary, title)),
      readDocument: (kind) => this.readDocument(sessionId, kind),
      recallSessions: (query, limit) => this.recallSessions(query, limit, sessionId),
    };
  }

  /** Links to a session's Notion pages (row, record, TLDR), when Notion is configured and they exist. */
  async notionLinks(sessionId: string): Promise<{ row: string | null; record: string | null; tldr: string | null }> {
    const notion = this.deps.notion;
    if (!notion) return { row: null, record: null, tldr: null };
    return { row: await notion.pageUrl(sessionId, 'row'), record: await notion.pageUrl(sessionId, 'record'), tldr: await notion.pageUrl(sessionId, 'tldr') };
  }

  // ---------------------------------------------------------------- internals

  /** True when something was said after the record, or the TLDR was made from an older record. */
  private async summaryIsStale(sessionId: string): Promise<boolean> {
    const lastMessageId = recordable(await this.deps.messages.listForSession(sessionId)).at(-1)?.id ?? 0;
    const record = await this.deps.documents.find(sessionId, 'record');
    if (Number(record?.metadata.lastMessageId ?? 0) < lastMessageId) return true;
    const tldr = await this.deps.documents.find(sessionId, 'tldr');
    return record !== null && Number(tldr?.metadata.recordVersion ?? 0) < record.version;
  }

  private async runUrgentPass(sessionId: string): Promise<void> {
    await this.queueScribePassNow(sessionId);
    if (this.deps.runQueue) await this.deps.runQueue(scribeQueue(sessionId));
    else this.deps.nudge?.();
  }

  private async queueScribePassNow(sessionId: string): Promise<void> {
    const now = this.deps.clock.now();
    const job = { kind: DOCUMENTATION_JOB_KINDS.scribe, payload: { sessionId }, runAt: now, dedupeKey: sessionId, queue: scribeQueue(sessionId), sessionId };
    await this.deps.jobs.enqueue(job, now);
    await this.deps.jobs.expedite(DOCUMENTATION_JOB_KINDS.scribe, sessionId, now, now);
  }

  /** A document people edited in Notion: flagged, and its pass (Scribe or TLDR) queued now to take their version up. */
  private async flagPeoplesEdits(document: StoredDocument): Promise<void> {
    await this.deps.documents.mergeMetadata(document.id, { [PEOPLE_EDITED_IN_NOTION]: true });
    if (document.kind === 'record') await this.queueScribePassNow(document.sessionId);
    else await scheduleTldr(this.deps, document.sessionId, { now: true });
    this.deps.nudge?.();
  }

  /**
   * Stores what an agent wrote (a pass, the wrap-up's `update_notion`). A record keeps every tick of the newest version,
   * read now: a model may drop one, and a `!done` may have landed while it wrote.
   */
  private async storeWritten(sessionId: string, kind: DocumentKind, written: string, metadata: Record<string, unknown>): Promise<void> {
    if (kind === 'tldr') await this.writes.store(sessionId, kind, written, metadata);
    else await this.writes.onNewestRecord(sessionId, (latest) => ({ content: withTicksKept(written, latest?.content ?? ''), metadata }));
  }

  /** Notion jobs of a session share one queue, so an outage catches up in the order things happened. */
  private async enqueueNotion(kind: string, sessionId: string, payload: Record<string, unknown>, dedupeKey: string): Promise<void> {
    await enqueueNotionJob(this.deps, kind, sessionId, payload, dedupeKey);
  }
}

/** Builds the documentation service. */
export function createDocumentationService(deps: DocumentationDependencies): DocumentationService {
  return new DocumentationService(deps);
}
