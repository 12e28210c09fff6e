/** Builds the Notion gateway from the configuration, or null when `NOTION_API_KEY` is not set (mirror only). */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config.ts';
import type { NotionObjectsRepository } from '../repositories/notion-objects-repository.ts';
import type { Clock } from '../core/clock.ts';
import { NotionGateway, type NotionObjectStore } from './notion-gateway.ts';
import type { NotionCreator } from './notion-requester.ts';

/** The gateway's id store over the `notion_objects` table. */
export function notionObjectStore(repository: NotionObjectsRepository, clock: Clock): NotionObjectStore {
  return {
    get: (key) => repository.get(key),
    set: (key, objectId) => repository.set(key, objectId, clock.now()),
    claim: (key, value) => repository.claim(key, value, clock.now()),
    remove: (key) => repository.remove(key),
  };
}

/** Once-only flags of a session's Notion state (e.g. "the room was told its documents are delayed"). */
export interface NotionFlags {
  /** Sets the flag; true when it was not set before. */
  claim(key: string): Promise<boolean>;
  /** Clears the flag; true when it was set. */
  release(key: string): Promise<boolean>;
}

/** Flags kept in the `notion_objects` table under `flag:` keys. */
export function notionFlags(repository: NotionObjectsRepository, clock: Clock): NotionFlags {
  return {
    claim: (key) => repository.claim(`flag:${key}`, clock.now().toISOString(), clock.now()),
    release: (key) => repository.release(`flag:${key}`),
  };
}

/** The gateway for `config.notion`, or null without an API key. */
export function createNotionGateway(
  config: Omit<AppConfig['notion'], 'retryWindowHours'>,
  options: { clock: Clock; logger?: Logger; objects: NotionObjectStore; processes?: () => number; creator?: NotionCreator },
): NotionGateway | null {
  if (!config.apiKey) return null;
  return new NotionGateway({
    auth: config.apiKey,
    baseUrl: config.baseUrl,
    clock: options.clock,
    requestsPerSecond: config.requestsPerSecond,
    objects: options.objects,
    ...(options.processes ? { processes: options.processes } : {}),
    ...(options.creator ? { creator: options.creator } : {}),
    ...(config.parentPageId ? { parentPageId: config.parentPageId } : {}),
    ...(config.databaseId ? { databaseId: config.databaseId } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
