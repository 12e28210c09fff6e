/**
 * The Notion layer over `@notionhq/client`: finds or creates the "Brainstorm Sessions" database, keeps one row
 * page per session with a "Detailed record" and a "TLDR" child page, and writes them through the markdown
 * endpoints, falling back to blocks where those are refused. Every request passes a client-side limiter;
 * the client's own retries are off because the outbox retries.
 */
import { Client, LogLevel, type BlockObjectRequest } from '@notionhq/client';
import type { Logger } from 'pino';
import type { Clock } from '../services/clock.ts';
import { blocksToMarkdown, chunkBlocks, markdownToBlocks, type BlockRequest, type ReadBlock } from './markdown-blocks.ts';
import { classifyNotionError, NotionRequestError, NotionThrottledError } from './notion-errors.ts';
import { RequestLimiter } from './request-limiter.ts';
import { SESSIONS_DATABASE_TITLE, SESSIONS_SCHEMA, sessionRowProperties, type SessionRowValues } from './session-row.ts';

/** Where the gateway keeps the ids of what it created (a table in production, a map in tests). */
export interface NotionObjectStore {
  get(key: string): Promise<string | null>;
  set(key: string, objectId: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/** A session document kind and its child page title. */
export type NotionDocumentKind = 'record' | 'tldr';

const DOCUMENT_TITLES: Record<NotionDocumentKind, string> = { record: 'Detailed record', tldr: 'TLDR' };

/** Options of the gateway. */
export interface NotionGatewayOptions {
  auth: string;
  baseUrl: string;
  clock: Clock;
  requestsPerSecond: number;
  parentPageId?: string;
  databaseId?: string;
  objects: NotionObjectStore;
  logger?: Logger;
  /** The longest a request waits for the limiter before the caller is told to come back (postpone). */
  maxLimiterWaitMs?: number;
  timeoutMs?: number;
}

interface DatabaseIds {
  databaseId: string;
  dataSourceId: string;
}

type JsonObject = Record<string, unknown>;

/** Our block requests are a plain-text subset of the client's block request union. */
function asBlocks(blocks: BlockRequest[]): BlockObjectRequest[] {
  return blocks as unknown as BlockObjectRequest[];
}

/** Notion through one integration token. */
export class NotionGateway {
  private readonly client: Client;
  private readonly limiter: RequestLimiter;
  private markdownSupported = true;
  private database: DatabaseIds | null = null;
  /** Requests sent (for the bench and the console). */
  requestCount = 0;

  constructor(private readonly options: NotionGatewayOptions) {
    this.client = new Client({ auth: options.auth, baseUrl: options.baseUrl, retry: false, timeoutMs: options.timeoutMs ?? 30_000, logLevel: LogLevel.ERROR, logger: () => undefined });
    this.limiter = new RequestLimiter(options.clock, options.requestsPerSecond);
  }

  /** Whether the markdown endpoints are used (false after Notion refused them once). */
  get usesMarkdown(): boolean {
    return this.markdownSupported;
  }

  /** Finds (stored id, configured id, or a child of the parent page) or creates the sessions database. */
  async ensureDatabase(signal?: AbortSignal): Promise<DatabaseIds> {
    if (this.database) return this.database;
    const key = this.databaseKey();
    const stored = await this.options.objects.get(key);
    if (stored) return (this.database = JSON.parse(stored) as DatabaseIds);
    const databaseId = this.options.databaseId ?? (await this.findDatabaseUnderParent(signal));
    const ids = databaseId ? await this.adoptDatabase(databaseId, signal) : await this.createDatabase(signal);
    await this.options.objects.set(key, JSON.stringify(ids));
    return (this.database = ids);
  }

  private databaseKey(): string {
    return `database:${this.options.databaseId ?? `parent:${this.options.parentPageId ?? ''}`}`;
  }

  private async forgetDatabase(): Promise<void> {
    this.database = null;
    await this.options.objects.remove(this.databaseKey());
  }

  /** Creates or updates the session's row; returns its page id. */
  async upsertSessionRow(sessionId: string, values: SessionRowValues, signal?: AbortSignal): Promise<string> {
    const key = `session:${sessionId}:row`;
    const existing = await this.options.objects.get(key);
    const properties = sessionRowProperties(values);
    if (existing) {
      try {
        await this.call(() => this.client.pages.update({ page_id: existing, properties } as Parameters<Client['pages']['update']>[0]), signal);
        return existing;
      } catch (error) {
        if (!(error instanceof NotionRequestError && error.kind === 'not_found')) throw error;
        await this.options.objects.remove(key);
      }
    }
    const { dataSourceId } = await this.ensureDatabase(signal);
    try {
      const page = await this.call(() => this.client.pages.create({ parent: { data_source_id: dataSourceId }, properties } as Parameters<Client['pages']['create']>[0]), signal);
      await this.options.objects.set(key, page.id);
      return page.id;
    } catch (error) {
      // The database was deleted or unshared in Notion: forget it, so the next attempt finds or creates one.
      if (error instanceof NotionRequestError && error.kind === 'not_found') await this.forgetDatabase();
      throw error;
    }
  }

  /** The session's row page id, if created. */
  async sessionRowId(sessionId: string): Promise<string | null> {
    return this.options.objects.get(`session:${sessionId}:row`);
  }

  /** Writes a session document as its child page (creating the row first if needed); returns the page id. */
  async writeDocument(sessionId: string, kind: NotionDocumentKind, markdown: string, row: SessionRowValues, signal?: AbortSignal): Promise<string> {
    const rowId = (await this.sessionRowId(sessionId)) ?? (await this.upsertSessionRow(sessionId, row, signal));
    const key = `session:${sessionId}:${kind}`;
    const existing = await this.options.objects.get(key);
    if (this.markdownSupported) {
      try {
        return await this.writeMarkdown(key, rowId, kind, existing, markdown, signal);
      } catch (error) {
        if (!(error instanceof NotionRequestError && error.kind === 'refused')) throw error;
        this.options.logger?.warn({ code: error.notionCode }, 'Notion refused the markdown endpoints; using blocks');
        this.markdownSupported = false;
      }
    }
    return this.writeBlocks(key, rowId, kind, await this.options.objects.get(key), markdown, signal);
  }

  /** Reads a session document back from Notion as markdown; null when it was never written. */
  async readDocument(sessionId: string, kind: NotionDocumentKind, signal?: AbortSignal): Promise<string | null> {
    const pageId = await this.options.objects.get(`session:${sessionId}:${kind}`);
    if (!pageId) return null;
    try {
      if (this.markdownSupported) {
        try {
          const page = await this.call(() => this.client.pages.retrieveMarkdown({ page_id: pageId }), signal);
          return page.markdown;
        } catch (error) {
          if (!(error instanceof NotionRequestError && error.kind === 'refused')) throw error;
          this.markdownSupported = false;
        }
      }
      return blocksToMarkdown(await this.readChildren(pageId, true, signal));
    } catch (error) {
      if (error instanceof NotionRequestError && error.kind === 'not_found') {
        await this.options.objects.remove(`session:${sessionId}:${kind}`);
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

  // ---------------------------------------------------------------- documents

  private async writeMarkdown(key: string, rowId: string, kind: NotionDocumentKind, existing: string | null, markdown: string, signal?: AbortSignal): Promise<string> {
    if (existing) {
      try {
        await this.call(() => this.client.pages.updateMarkdown({ page_id: existing, type: 'replace_content', replace_content: { new_str: markdown } }), signal);
        return existing;
      } catch (error) {
        if (!(error instanceof NotionRequestError && error.kind === 'not_found')) throw error;
        await this.options.objects.remove(key);
      }
    }
    const page = await this.call(() => this.client.pages.create({ parent: { page_id: rowId }, properties: { title: { title: [{ text: { content: DOCUMENT_TITLES[kind] } }] } }, markdown }), signal);
    await this.options.objects.set(key, page.id);
    return page.id;
  }

  /** Replace = trash the old child page and create a new one (never block-by-block deletes). */
  private async writeBlocks(key: string, rowId: string, kind: NotionDocumentKind, existing: string | null, markdown: string, signal?: AbortSignal): Promise<string> {
    if (existing) {
      try {
        await this.call(() => this.client.pages.update({ page_id: existing, in_trash: true }), signal);
      } catch (error) {
        const gone = error instanceof NotionRequestError && (error.kind === 'not_found' || error.notionCode === 'validation_error');
        if (!gone) throw error;
      }
      await this.options.objects.remove(key);
    }
    const [first = [], ...rest] = chunkBlocks(markdownToBlocks(markdown));
    const title = { title: { title: [{ text: { content: DOCUMENT_TITLES[kind] } }] } };
    const page = await this.call(() => this.client.pages.create({ parent: { page_id: rowId }, properties: title, children: asBlocks(first) }), signal);
    await this.options.objects.set(key, page.id);
    for (const chunk of rest) {
      await this.call(() => this.client.blocks.children.append({ block_id: page.id, children: asBlocks(chunk) }), signal);
    }
    return page.id;
  }

  private async readChildren(blockId: string, descend: boolean, signal?: AbortSignal): Promise<(ReadBlock & { children?: ReadBlock[] })[]> {
    const blocks: (ReadBlock & { children?: ReadBlock[] })[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call(() => this.client.blocks.children.list({ block_id: blockId, start_cursor: cursor, page_size: 100 }), signal);
      blocks.push(...(page.results as unknown as ReadBlock[]));
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
    if (descend) {
      for (const block of blocks) if (block.has_children && block.type !== 'child_page') block.children = await this.readChildren(block.id, false, signal);
    }
    return blocks;
  }

  // ---------------------------------------------------------------- database

  private async findDatabaseUnderParent(signal?: AbortSignal): Promise<string | null> {
    const parent = this.options.parentPageId;
    if (!parent) throw new NotionRequestError('invalid', 'not_configured', 'Set NOTION_PARENT_PAGE_ID (or NOTION_DATABASE_ID) to use Notion', null);
    const children = await this.readChildren(parent, false, signal);
    const found = children.find((block) => block.type === 'child_database' && (block.child_database as { title?: string } | undefined)?.title === SESSIONS_DATABASE_TITLE);
    return found?.id ?? null;
  }

  private async createDatabase(signal?: AbortSignal): Promise<DatabaseIds> {
    const parent = this.options.parentPageId ?? '';
    const created = (await this.call(
      () =>
        this.client.databases.create({
          parent: { type: 'page_id', page_id: parent },
          title: [{ type: 'text', text: { content: SESSIONS_DATABASE_TITLE } }],
          initial_data_source: { properties: SESSIONS_SCHEMA },
        } as Parameters<Client['databases']['create']>[0]),
      signal,
    )) as JsonObject;
    const sources = created.data_sources as { id: string }[] | undefined;
    const dataSourceId = sources?.[0]?.id ?? (await this.adoptDatabase(String(created.id), signal)).dataSourceId;
    return { databaseId: String(created.id), dataSourceId };
  }

  /** Reads the schema from the data source (not the database object) and adds the columns that are missing. */
  private async adoptDatabase(databaseId: string, signal?: AbortSignal): Promise<DatabaseIds> {
    const database = (await this.call(() => this.client.databases.retrieve({ database_id: databaseId }), signal)) as JsonObject;
    const dataSourceId = (database.data_sources as { id: string }[] | undefined)?.[0]?.id;
    if (!dataSourceId) throw new NotionRequestError('invalid', 'no_data_source', `Notion database ${databaseId} has no data source`, null);
    const source = (await this.call(() => this.client.dataSources.retrieve({ data_source_id: dataSourceId }), signal)) as JsonObject;
    const present = (source.properties ?? {}) as Record<string, { type?: string }>;
    const titleName = Object.entries(present).find(([, property]) => property.type === 'title')?.[0];
    const missing: Record<string, unknown> = {};
    for (const [name, definition] of Object.entries(SESSIONS_SCHEMA)) {
      if (name === 'Topic' && titleName && titleName !== 'Topic') missing[titleName] = { name: 'Topic' };
      else if (!present[name]) missing[name] = definition;
    }
    if (Object.keys(missing).length > 0) {
      await this.call(() => this.client.dataSources.update({ data_source_id: dataSourceId, properties: missing } as Parameters<Client['dataSources']['update']>[0]), signal);
    }
    return { databaseId: String(database.id), dataSourceId };
  }

  // ---------------------------------------------------------------- requests

  /** One request: waits for the limiter (or asks the caller to come back later), then classifies failures. */
  private async call<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const wait = this.limiter.waitMs();
    if (wait > (this.options.maxLimiterWaitMs ?? 5_000)) throw new NotionThrottledError(wait);
    await this.limiter.acquire(signal);
    this.requestCount += 1;
    try {
      return await request();
    } catch (error) {
      throw classifyNotionError(error);
    }
  }
}
