/** The "Brainstorm Sessions" database: found under the parent page, adopted (missing columns added) or created. */
import type { Client } from '@notionhq/client';
import { NotionRequestError } from './notion-errors.ts';
import type { NotionObjectStore, NotionRequester } from './notion-requester.ts';
import { SESSIONS_DATABASE_TITLE, SESSIONS_SCHEMA } from './session-row.ts';

/** The ids of the sessions database and its (single) data source. */
export interface DatabaseIds {
  databaseId: string;
  dataSourceId: string;
}

type JsonObject = Record<string, unknown>;

/**
 * The database stored under `key`; else the configured one, or the one under the parent page, adopted; or a new one.
 * Through `createOnce` under `key`: one process, and one job, makes it while the others wait for its id.
 */
export async function findOrCreateDatabase(
  requester: NotionRequester,
  key: string,
  where: { databaseId?: string; parentPageId?: string; objects: NotionObjectStore },
  signal?: AbortSignal,
): Promise<DatabaseIds> {
  const stored = await where.objects.get(key);
  if (stored) return JSON.parse(stored) as DatabaseIds;
  const find = async () => where.databaseId ?? (await findDatabaseUnderParent(requester, where.parentPageId, signal));
  const adopt = async (databaseId: string) => JSON.stringify(await adoptDatabase(requester, databaseId, signal));
  const found = await find();
  const made = await requester.createOnce(
    key,
    async () => {
      const again = await find();
      return again ? adopt(again) : null;
    },
    async () => ({ id: found ? await adopt(found) : JSON.stringify(await createDatabase(requester, where.parentPageId, signal)) }),
  );
  return JSON.parse(made.id) as DatabaseIds;
}

/** The sessions database among the parent page's children, by its title. */
export async function findDatabaseUnderParent(requester: NotionRequester, parentPageId: string | undefined, signal?: AbortSignal): Promise<string | null> {
  const parent = parentPageId;
  if (!parent) throw new NotionRequestError('invalid', 'not_configured', 'Set NOTION_PARENT_PAGE_ID (or NOTION_DATABASE_ID) to use Notion', null);
  const children = await requester.readChildren(parent, false, signal);
  const found = children.find(
    (block) => block.type === 'child_database' && (block.child_database as { title?: string } | undefined)?.title === SESSIONS_DATABASE_TITLE,
  );
  return found?.id ?? null;
}

/** Creates the sessions database (with its data source and schema) under the parent page. */
export async function createDatabase(requester: NotionRequester, parentPageId: string | undefined, signal?: AbortSignal): Promise<DatabaseIds> {
  const parent = parentPageId ?? '';
  const created = (await requester.call(
    () =>
      requester.client.databases.create({
        parent: { type: 'page_id', page_id: parent },
        title: [{ type: 'text', text: { content: SESSIONS_DATABASE_TITLE } }],
        initial_data_source: { properties: SESSIONS_SCHEMA },
      } as Parameters<Client['databases']['create']>[0]),
    signal,
  )) as JsonObject;
  const sources = created.data_sources as { id: string }[] | undefined;
  const dataSourceId = sources?.[0]?.id ?? (await adoptDatabase(requester, String(created.id), signal)).dataSourceId;
  return { databaseId: String(created.id), dataSourceId };
}

/** Reads the schema from the data source (not the database object) and adds the columns that are missing. */
export async function adoptDatabase(requester: NotionRequester, databaseId: string, signal?: AbortSignal): Promise<DatabaseIds> {
  const database = (await requester.call(() => requester.client.databases.retrieve({ database_id: databaseId }), signal)) as JsonObject;
  const dataSourceId = (database.data_sources as { id: string }[] | undefined)?.[0]?.id;
  if (!dataSourceId) throw new NotionRequestError('invalid', 'no_data_source', `Notion database ${databaseId} has no data source`, null);
  const source = (await requester.call(() => requester.client.dataSources.retrieve({ data_source_id: dataSourceId }), signal)) as JsonObject;
  const present = (source.properties ?? {}) as Record<string, { type?: string }>;
  const titleName = Object.entries(present).find(([, property]) => property.type === 'title')?.[0];
  const missing: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(SESSIONS_SCHEMA)) {
    if (name === 'Topic' && titleName && titleName !== 'Topic') missing[titleName] = { name: 'Topic' };
    else if (!present[name]) missing[name] = definition;
  }
  if (Object.keys(missing).length > 0) {
    await requester.call(
      () => requester.client.dataSources.update({ data_source_id: dataSourceId, properties: missing } as Parameters<Client['dataSources']['update']>[0]),
      signal,
    );
  }
  return { databaseId: String(database.id), dataSourceId };
}
