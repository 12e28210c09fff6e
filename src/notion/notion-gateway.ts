/**
 * The Notion layer over `@notionhq/client`: finds or creates the "Brainstorm Sessions" database, keeps one row
 * page per session with a "Detailed record" and a "TLDR" child page, and writes them through the markdown
 * endpoints, falling back to blocks where those are refused. Every create is idempotent (intent stored first,
 * unique key looked up on retry), and objects a person deleted or trashed are recreated.
 */
import type { BlockObjectRequest, Client } from '@notionhq/client';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { blocksToMarkdown, chunkBlocks, markdownToBlocks, type BlockRequest } from './markdown-blocks.ts';
import { NotionRequestError } from './notion-errors.ts';
import { isVanished, NotionRequester, type NotionCreator, type NotionObjectStore } from './notion-requester.ts';
import { findOrCreateDatabase, type DatabaseIds } from './notion-database.ts';
import { sessionRowProperties, type SessionRowValues } from './session-row.ts';
import { PageAuthors } from './page-authors.ts';

export type { NotionObjectStore } from './notion-requester.ts';

/** A session document kind and its child page title. */
export type NotionDocumentKind = 'record' | 'tldr';

const DOCUMENT_TITLES: Record<NotionDocumentKind, string> = { record: 'Detailed record', tldr: 'TLDR' };
const DOCUMENT_KINDS: NotionDocumentKind[] = ['record', 'tldr'];

/** Options of the gateway. */
export interface NotionGatewayOptions {
  auth: string;
  baseUrl: string;
  clock: Clock;
  requestsPerSecond: number;
  /** How many processes share the integration's requests per second now (default 1). */
  processes?: () => number;
  /** Who this process is among those that create Notion objects (see `NotionCreator`). */
  creator?: NotionCreator;
  parentPageId?: string;
  databaseId?: string;
  objects: NotionObjectStore;
  logger?: Logger;
  /** The longest a request waits for the limiter before the caller is told to come back (postpone). */
  maxLimiterWaitMs?: number;
  timeoutMs?: number;
}

/** Our block requests are a plain-text subset of the client's block request union. */
function asBlocks(blocks: BlockRequest[]): BlockObjectRequest[] {
  return blocks as unknown as BlockObjectRequest[];
}

const rowKey = (sessionId: string): string => `session:${sessionId}:row`;
const documentKey = (sessionId: string, kind: NotionDocumentKind): string => `session:${sessionId}:${kind}`;

/** Notion through one integration token. */
export class NotionGateway {
  private readonly requester: NotionRequester;
  private readonly client: Client;
  private readonly authors: PageAuthors;
  private markdownSupported = true;
  private database: DatabaseIds | null = null;
  private ensuring: Promise<DatabaseIds> | null = null;

  constructor(private readonly options: NotionGatewayOptions) {
    this.requester = new NotionRequester(options);
    this.client = this.requester.client;
    this.authors = new PageAuthors(this.requester);
  }

  /** Requests sent (for the bench and the console). */
  get requestCount(): number {
    return this.requester.requestCount;
  }

  /** Whether the markdown endpoints are used (false after Notion refused them once). */
  get usesMarkdown(): boolean {
    return this.markdownSupported;
  }

  /**
   * Finds (stored id, configured id, or a child of the parent page) or creates the sessions database: once for the
   * jobs running at once here, and once among processes (the create goes through `createOnce`).
   */
  ensureDatabase(signal?: AbortSignal): Promise<DatabaseIds> {
    if (this.database) return Promise.resolve(this.database);
    this.ensuring ??= findOrCreateDatabase(this.requester, this.databaseKey(), this.options, signal)
      .then((ids) => (this.database = ids))
      .finally(() => (this.ensuring = null));
    return this.ensuring;
  }

  private databaseKey(): string {
    return `database:${this.options.databaseId ?? `parent:${this.options.parentPageId ?? ''}`}`;
  }

  private async forgetDatabase(): Promise<void> {
    this.database = null;
    await this.options.objects.remove(this.databaseKey());
  }

  /** Creates or updates the session's row (recreating it when it vanished); returns its page id. */
  async upsertSessionRow(sessionId: string, values: SessionRowValues, signal?: AbortSignal): Promise<string> {
    const existing = await this.options.objects.get(rowKey(sessionId));
    const properties = sessionRowProperties(values);
    if (existing) {
      try {
        await this.requester.write(
          existing,
          () => this.client.pages.update({ page_id: existing, properties } as Parameters<Client['pages']['update']>[0]),
          signal,
        );
        return existing;
      } catch (error) {
        if (!isVanished(error)) throw error;
        await this.forgetSession(sessionId);
      }
    }
    const { dataSourceId } = await this.ensureDatabase(signal);
    try {
      const created = await this.requester.createOnce(
        rowKey(sessionId),
        () => this.findRow(dataSourceId, values.conversationId, signal),
        () =>
          this.requester.call(
            () => this.client.pages.create({ parent: { data_source_id: dataSourceId }, properties } as Parameters<Client['pages']['create']>[0]),
            signal,
          ),
      );
      if (created.existed)
        await this.requester.write(
          created.id,
          () => this.client.pages.update({ page_id: created.id, properties } as Parameters<Client['pages']['update']>[0]),
          signal,
        );
      return created.id;
    } catch (error) {
      // The database was deleted or unshared in Notion: forget it, so the next attempt finds or creates one.
      if (isVanished(error)) await this.forgetDatabase();
      throw error;
    }
  }

  /** The session's row page id, if created. */
  async sessionRowId(sessionId: string): Promise<string | null> {
    return this.options.objects.get(rowKey(sessionId));
  }

  /** The page id of a session document, if created. */
  async documentId(sessionId: string, kind: NotionDocumentKind): Promise<string | null> {
    return this.options.objects.get(documentKey(sessionId, kind));
  }

  /**
   * Writes a session document as its child page (creating the row first if needed); returns the page id.
   * When the row vanished under us (deleted or trashed), it and the page are recreated once in this call.
   */
  async writeDocument(sessionId: string, kind: NotionDocumentKind, markdown: string, row: SessionRowValues, signal?: AbortSignal): Promise<string> {
    try {
      return await this.writeDocumentOnce(sessionId, kind, markdown, row, signal);
    } catch (error) {
      if (!isVanished(error)) throw error;
      this.options.logger?.warn({ sessionId, kind }, 'the session page vanished in Notion; recreating it');
      await this.forgetSession(sessionId);
      return this.writeDocumentOnce(sessionId, kind, markdown, row, signal);
    }
  }

  private async writeDocumentOnce(sessionId: string, kind: NotionDocumentKind, markdown: string, row: SessionRowValues, signal?: AbortSignal): Promise<string> {
    const rowId = (await this.sessionRowId(sessionId)) ?? (await this.upsertSessionRow(sessionId, row, signal));
    const key = documentKey(sessionId, kind);
    if (this.markdownSupported) {
      try {
        return await this.writeMarkdown(key, rowId, kind, markdown, signal);
      } catch (error) {
        if (!(error instanceof NotionRequestError && error.kind === 'refused')) throw error;
        this.options.logger?.warn({ code: error.notionCode }, 'Notion refused the markdown endpoints; using blocks');
        this.markdownSupported = false;
      }
    }
    return this.writeBlocks(key, rowId, kind, markdown, signal);
  }

  /** Whether a person edited a session document's page in Notion since this integration last wrote it. */
  async documentEditedByPeople(sessionId: string, kind: NotionDocumentKind, signal?: AbortSignal): Promise<boolean> {
    const pageId = await this.options.objects.get(documentKey(sessionId, kind));
    return pageId ? this.authors.editedByOthers(pageId, signal) : false;
  }

  /** Reads a session document back from Notion as markdown; null when it was never written or vanished. */
  async readDocument(sessionId: string, kind: NotionDocumentKind, signal?: AbortSignal): Promise<string | null> {
    const key = documentKey(sessionId, kind);
    const pageId = await this.options.objects.get(key);
    if (!pageId) return null;
    try {
      if (this.markdownSupported) {
        try {
          const page = await this.requester.write(pageId, () => this.client.pages.retrieveMarkdown({ page_id: pageId }), signal);
          return page.markdown;
        } catch (error) {
          if (!(error instanceof NotionRequestError && error.kind === 'refused')) throw error;
          this.markdownSupported = false;
        }
      }
      if (await this.requester.isGone(pageId, signal))
        throw new NotionRequestError('not_found', 'object_archived', `Notion page ${pageId} is in the trash`, null);
      return blocksToMarkdown(await this.requester.readChildren(pageId, true, signal));
    } catch (error) {
      if (isVanished(error)) {
        await this.options.objects.remove(key);
        return null;
      }
      throw error;
    }
  }

  /** The public URL of a session page (row or document), if created. */
  async pageUrl(sessionId: string, kind: NotionDocumentKind | 'row'): Promise<string | null> {
    const id = await this.options.objects.get(`session:${sessionId}:${kind}`);
    return id ? `https://www.notion.so/${id.replace(/-/g, '')}` : null;
  }

  /** Forgets a session's row and its pages (they went with the row). */
  private async forgetSession(sessionId: string): Promise<void> {
    await this.options.objects.remove(rowKey(sessionId));
    for (const kind of DOCUMENT_KINDS) await this.options.objects.remove(documentKey(sessionId, kind));
  }

  /** The live row of a session in the data source, by its unique "Conversation ID". */
  private async findRow(dataSourceId: string, conversationId: string, signal?: AbortSignal): Promise<string | null> {
    const result = await this.requester.call(
      () =>
        this.client.dataSources.query({
          data_source_id: dataSourceId,
          filter: { property: 'Conversation ID', rich_text: { equals: conversationId } },
          page_size: 1,
        }),
      signal,
    );
    return result.results[0]?.id ?? null;
  }

  // ---------------------------------------------------------------- documents

  private async writeMarkdown(key: string, rowId: string, kind: NotionDocumentKind, markdown: string, signal?: AbortSignal): Promise<string> {
    const existing = await this.options.objects.get(key);
    const replace = (pageId: string) =>
      this.requester.write(
        pageId,
        () => this.client.pages.updateMarkdown({ page_id: pageId, type: 'replace_content', replace_content: { new_str: markdown } }),
        signal,
      );
    if (existing) {
      try {
        await replace(existing);
        return existing;
      } catch (error) {
        if (!isVanished(error)) throw error;
        await this.options.objects.remove(key);
      }
    }
    const title = { title: { title: [{ text: { content: DOCUMENT_TITLES[kind] } }] } };
    const page = await this.requester.createOnce(
      key,
      () => this.requester.findChildPage(rowId, DOCUMENT_TITLES[kind], signal),
      () => this.requester.write(rowId, () => this.client.pages.create({ parent: { page_id: rowId }, properties: title, markdown }), signal),
    );
    if (page.existed) await replace(page.id);
    return page.id;
  }

  /** Replace = trash the old child page and create a new one (never block-by-block deletes). */
  private async writeBlocks(key: string, rowId: string, kind: NotionDocumentKind, markdown: string, signal?: AbortSignal): Promise<string> {
    const trash = async (pageId: string): Promise<void> => {
      try {
        await this.requester.write(pageId, () => this.client.pages.update({ page_id: pageId, in_trash: true }), signal);
      } catch (error) {
        if (!isVanished(error)) throw error;
      }
    };
    const existing = await this.options.objects.get(key);
    if (existing) {
      await trash(existing);
      await this.options.objects.remove(key);
    }
    const [first = [], ...rest] = chunkBlocks(markdownToBlocks(markdown));
    const title = { title: { title: [{ text: { content: DOCUMENT_TITLES[kind] } }] } };
    const create = () =>
      this.requester.write(rowId, () => this.client.pages.create({ parent: { page_id: rowId }, properties: title, children: asBlocks(first) }), signal);
    let page = await this.requester.createOnce(key, () => this.requester.findChildPage(rowId, DOCUMENT_TITLES[kind], signal), create);
    if (page.existed) {
      // A copy a crash left half-written: replace it like any other old version.
      await trash(page.id);
      await this.options.objects.remove(key);
      page = await this.requester.createOnce(key, async () => null, create);
    }
    for (const chunk of rest) {
      await this.requester.call(() => this.client.blocks.children.append({ block_id: page.id, children: asBlocks(chunk) }), signal);
    }
    return page.id;
  }
}
