/**
 * One integration's requests: the client-side limiter, error classification, and the checks that make writes
 * safe to retry: whether a page vanished (deleted, unshared or trashed) and create-once with a stored intent.
 */
import { Client, LogLevel } from '@notionhq/client';
import type { Clock } from '../core/clock.ts';
import type { ReadBlock } from './markdown-blocks.ts';
import { classifyNotionError, NotionRequestError, NotionThrottledError } from './notion-errors.ts';
import { RequestLimiter } from './request-limiter.ts';

/** Where the gateway keeps the ids of what it created (a table in production, a map in tests). */
export interface NotionObjectStore {
  get(key: string): Promise<string | null>;
  set(key: string, objectId: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/** What the requester needs. */
export interface NotionRequesterOptions {
  auth: string;
  baseUrl: string;
  clock: Clock;
  requestsPerSecond: number;
  objects: NotionObjectStore;
  maxLimiterWaitMs?: number;
  timeoutMs?: number;
}

/** A read block with its children attached. */
export type ReadTree = ReadBlock & { children?: ReadBlock[] };

/** The error a write gets when its page is gone (404, or trashed: Notion answers validation_error then). */
export function vanished(pageId: string): NotionRequestError {
  return new NotionRequestError('not_found', 'object_archived', `Notion page ${pageId} is in the trash or no longer shared`, null);
}

/** True when a failure means the object is gone (404 or found in the trash). */
export function isVanished(error: unknown): error is NotionRequestError {
  return error instanceof NotionRequestError && error.kind === 'not_found';
}

/** Requests through one token, limited and classified. */
export class NotionRequester {
  readonly client: Client;
  private readonly limiter: RequestLimiter;
  /** Requests sent (for the bench and the console). */
  requestCount = 0;

  constructor(private readonly options: NotionRequesterOptions) {
    // The client's own retries are off: the outbox retries with backoff.
    this.client = new Client({
      auth: options.auth,
      baseUrl: options.baseUrl,
      retry: false,
      timeoutMs: options.timeoutMs ?? 30_000,
      logLevel: LogLevel.ERROR,
      logger: () => undefined,
    });
    this.limiter = new RequestLimiter(options.clock, options.requestsPerSecond);
  }

  /** One request: waits for the limiter (or asks the caller to come back later), then classifies failures. */
  async call<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const wait = this.limiter.waitMs();
    if (wait > (this.options.maxLimiterWaitMs ?? 5_000)) throw new NotionThrottledError(wait);
    const answered = await this.limiter.acquire(signal);
    this.requestCount += 1;
    try {
      return await request();
    } catch (error) {
      throw classifyNotionError(error);
    } finally {
      answered();
    }
  }

  /**
   * A write to `pageId`; a refusal (validation_error) is checked against the page itself, so a page a person
   * trashed reads as vanished rather than as a request Notion does not accept.
   */
  async write<T>(pageId: string, request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await this.call(request, signal);
    } catch (error) {
      if (error instanceof NotionRequestError && error.kind === 'refused' && (await this.isGone(pageId, signal))) throw vanished(pageId);
      throw error;
    }
  }

  /** Whether a page is gone: 404, or retrieved with `in_trash`/`archived`. */
  async isGone(pageId: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const page = (await this.call(() => this.client.pages.retrieve({ page_id: pageId }), signal)) as { in_trash?: boolean; archived?: boolean };
      return page.in_trash === true || page.archived === true;
    } catch (error) {
      if (isVanished(error)) return true;
      throw error;
    }
  }

  /**
   * Creates an object once. The intent is stored before the create; a retry that finds an intent (a crash after
   * Notion created it, before its id was stored) looks the object up by its unique key first.
   * Returns the id and whether it already existed.
   */
  async createOnce(key: string, lookup: () => Promise<string | null>, create: () => Promise<{ id: string }>): Promise<{ id: string; existed: boolean }> {
    const objects = this.options.objects;
    const intent = `intent:${key}`;
    if (await objects.get(intent)) {
      const found = await lookup();
      if (found) {
        await objects.set(key, found);
        await objects.remove(intent);
        return { id: found, existed: true };
      }
    } else {
      await objects.set(intent, this.options.clock.now().toISOString());
    }
    const created = await create();
    await objects.set(key, created.id);
    await objects.remove(intent);
    return { id: created.id, existed: false };
  }

  /** The live child page of `parentId` titled `title`, if any (the unique key of a session document). */
  async findChildPage(parentId: string, title: string, signal?: AbortSignal): Promise<string | null> {
    const children = await this.readChildren(parentId, false, signal);
    const found = children.find(
      (block) => block.type === 'child_page' && block.in_trash !== true && (block.child_page as { title?: string } | undefined)?.title === title,
    );
    return found?.id ?? null;
  }

  /** Every child block of a block or page (paginated), optionally one level of grandchildren. */
  async readChildren(blockId: string, descend: boolean, signal?: AbortSignal): Promise<ReadTree[]> {
    const blocks: ReadTree[] = [];
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
}
