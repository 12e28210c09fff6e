/** How a session document is stored: a new version, its markdown mirror, and its sync to Notion queued. */
import type { DocumentKind, StoredDocument } from '../../repositories/documents-repository.ts';
import type { MarkdownMirror } from '../../notion/markdown-mirror.ts';
import { enqueueNotionJob } from './document-delays.ts';
import { DOCUMENTATION_JOB_KINDS, type DocumentationDependencies } from './documentation-types.ts';

/** Tries at a record version made from the newest one, when other writers keep getting in between. */
const MAX_RECORD_WRITE_ATTEMPTS = 5;

/** A version to write, made from the newest record (null: nothing to write). */
export type RecordComposer = (latest: StoredDocument | null) => { content: string; metadata: Record<string, unknown> } | null;

/** Stores session documents for the documentation service. */
export class DocumentWrites {
  constructor(
    private readonly deps: DocumentationDependencies,
    private readonly mirror: Pick<MarkdownMirror, 'write'>,
  ) {}

  /**
   * Writes a record version made from the newest one, made again from a newer one when another writer got in between
   * (a Scribe pass, a person's `!done`, another process): neither overwrites what the other just wrote.
   */
  async onNewestRecord(sessionId: string, compose: RecordComposer): Promise<StoredDocument | null> {
    for (let attempt = 1; ; attempt += 1) {
      const latest = await this.deps.documents.find(sessionId, 'record');
      const next = compose(latest);
      if (next === null) return null;
      const stored = await this.store(sessionId, 'record', next.content, next.metadata, latest?.version ?? 0);
      if (stored || attempt >= MAX_RECORD_WRITE_ATTEMPTS) return stored;
    }
  }

  /** Stores a version (when the newest is still `after`, if given), mirrors it and queues its sync; null on a conflict. */
  async store(
    sessionId: string,
    kind: DocumentKind,
    written: string,
    metadata: Record<string, unknown>,
    after: number | null = null,
  ): Promise<StoredDocument | null> {
    const markdown = this.deps.appendix ? await this.deps.appendix(sessionId, kind, written) : written;
    const now = this.deps.clock.now();
    const stored = await this.deps.documents.writeAfter(sessionId, kind, markdown, { ...metadata, writtenAt: now.toISOString() }, now, after);
    if (!stored) return null;
    await this.mirror.write(sessionId, kind, markdown);
    if (!this.deps.notion) return stored;
    await enqueueNotionJob(this.deps, DOCUMENTATION_JOB_KINDS.notionSync, sessionId, { sessionId, kind }, `${sessionId}:${kind}`);
    if (kind === 'tldr') await enqueueNotionJob(this.deps, DOCUMENTATION_JOB_KINDS.notionRow, sessionId, { sessionId }, sessionId);
    return stored;
  }
}
