/**
 * One integration's requests: the client-side limiter, error classification, and the checks that make writes
 * safe to retry: whether a page vanished (deleted, unshared or trashed) and create-once with a stored intent.
 */
import { randomUUID } from 'node:crypto';
import { APIErrorCode, Client, ClientErrorCode, LogLevel } from '@notionhq/client';
import type { Clock } from '../core/clock.ts';
import { whenReachable } from '../core/database-unreachable.ts';
import type { ReadBlock } from './markdown-blocks.ts';
import { classifyNotionError, NotionRequestError, NotionThrottledError } from './notion-errors.ts';
import { RequestLimiter } from './request-limiter.ts';

/** Where the gateway keeps the ids of what it created (a table in production, a map in tests). */
export interface NotionObjectStore {
  get(key: string): Promise<string | null>;
  set(key: string, objectId: string): Promise<void>;
  /** Stores `value` under `key` only when nothing is there; true when this call stored it (one winner among processes). */
  claim(key: string, value: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

/** This process's name on its intents to create, and whether another's is still alive (a dead one's intent is taken over). */
export interface NotionCreator {
  id: string;
  isAlive(id: string): Promise<boolean>;
}

/**
 * How long an intent to create keeps others from creating the same object: longer than a create can take (the
 * limiter's wait, then the request's timeout). An older intent is one whose creator died.
 */
const CREATE_INTENT_MS = 45_000;
/** How soon a caller that found another's create under way tries again. */
const CREATE_ELSEWHERE_RETRY_MS = 2_000;

/** What the requester needs. */
export interface NotionRequesterOptions {
  auth: string;
  baseUrl: string;
  clock: Clock;
  requestsPerSecond: number;
  /** How many processes share the integration's requests per second now (default 1). */
  processes?: () => number;
  /** Who this process is among those that create (default: a name of its own, and no other process alive). */
  creator?: NotionCreator;
  objects: NotionObjectStore;
  maxLimiterWaitMs?: number;
  timeoutMs?: number;
}

/** Failures after which Notion may have done what was asked: no answer came, or only a gateway's. */
const UNANSWERED = new Set<string>(['network_error', ClientErrorCode.RequestTimeout, ClientErrorCode.ResponseError, APIErrorCode.GatewayTimeout]);

function createdElsewhere(key: string): NotionRequestError {
  return new NotionRequestError('unavailable', 'creation_in_progress', `Another job is creating the Notion object ${key}`, CREATE_ELSEWHERE_RETRY_MS);
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
  private readonly creator: NotionCreator;
  /** Keys whose create runs in this process now. */
  private readonly creating = new Set<string>();

  constructor(private readonly options: NotionRequesterOptions) {
    // Without word of other processes (one process, or a test), an intent of another creator is a crash's.
    this.creator = options.creator ?? { id: `notion-${randomUUID()}`, isAlive: async () => false };
    // The client's own retries are off: the outbox retries with backoff.
    this.client = new Client({
      auth: options.auth,
      baseUrl: options.baseUrl,
      retry: false,
      timeoutMs: options.timeoutMs ?? 30_000,
      logLevel: LogLevel.ERROR,
      logger: () => undefined,
    });
    this.limiter = new RequestLimiter(options.clock, options.requestsPerSecond, options.processes);
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
   * Creates an object once, among every job and process. The intent is claimed before the create: one caller wins
   * it. Another that comes meanwhile uses the id once it is stored, or tries again shortly (two jobs, or two
   * processes, that both looked and found nothing made two databases or two rows). An intent older than a create can
   * take is a crash after Notion created the object, before its id was stored: the object is looked up by its unique
   * key first. Returns the id and whether it already existed.
   */
  async createOnce(key: string, lookup: () => Promise<string | null>, create: () => Promise<{ id: string }>): Promise<{ id: string; existed: boolean }> {
    const objects = this.options.objects;
    const intent = `intent:${key}`;
    const mine = `${this.options.clock.now().toISOString()} ${this.creator.id}`;
    if (!(await objects.claim(intent, mine))) {
      const stored = await objects.get(key);
      if (stored) return { id: stored, existed: true };
      if (!(await this.orphaned(key, await objects.get(intent)))) throw createdElsewhere(key);
      await objects.set(intent, mine);
      const found = await lookup();
      if (found) {
        await objects.set(key, found);
        await objects.remove(intent);
        return { id: found, existed: true };
      }
    }
    this.creating.add(key);
    try {
      const created = await create().catch(async (error: unknown) => {
        // An answer that says no made nothing: the intent goes. One that never came may have made it: the intent
        // stays, so the next caller looks first.
        if (!(error instanceof NotionRequestError && UNANSWERED.has(error.notionCode))) await objects.remove(intent);
        throw error;
      });
      // Notion has the object now: its id is kept once the database answers (a few seconds of a restart, a failover),
      // or the intent stays behind it and every other process waits it out before looking the object up.
      await whenReachable(
        async () => {
          await objects.set(key, created.id);
          await objects.remove(intent);
        },
        { clock: this.options.clock },
      );
      return { id: created.id, existed: false };
    } finally {
      this.creating.delete(key);
    }
  }

  /**
   * Whether an intent's creator will never finish: its time is up, it was this process and no create of the key runs
   * here now (the attempt ended without storing the id), or its process is gone (a crash; its restart takes over).
   */
  private async orphaned(key: string, intent: string | null): Promise<boolean> {
    const [claimedAt = '', creatorId = ''] = (intent ?? '').split(' ');
    if (this.options.clock.now().getTime() - Date.parse(claimedAt) >= CREATE_INTENT_MS || !creatorId) return true;
    if (creatorId === this.creator.id) return !this.creating.has(key);
    return !(await this.creator.isAlive(creatorId));
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
