/** The fake Notion's stored records as the REST API answers them (API version 2025-09-03). */
import { plainText } from './fake-markdown.ts';
import type { JsonObject, StoredBlock, StoredDatabase, StoredDataSource, StoredPage } from './notion-records.ts';
import { richTextResponse } from './notion-values.ts';

const notionUrl = (id: string) => `https://www.notion.so/${id.replace(/-/g, '')}`;

/** A page object. */
export function pageResponse(page: StoredPage): JsonObject {
  return {
    object: 'page',
    id: page.id,
    created_time: page.createdTime,
    last_edited_time: page.lastEditedTime,
    created_by: { object: 'user', id: page.createdBy },
    last_edited_by: { object: 'user', id: page.lastEditedBy },
    parent: page.parent,
    in_trash: page.inTrash,
    archived: page.inTrash,
    is_locked: false,
    properties: page.properties,
    url: notionUrl(page.id),
    public_url: null,
    icon: null,
    cover: null,
  };
}

/** A page retrieved or deleted through the blocks endpoints: a `child_page` block. */
export function pageAsBlock(page: StoredPage, hasChildren: boolean): JsonObject {
  return {
    object: 'block',
    id: page.id,
    type: 'child_page',
    child_page: { title: plainText(page.properties.title?.title) },
    has_children: hasChildren,
    in_trash: page.inTrash,
    archived: page.inTrash,
    parent: page.parent,
  };
}

/** A block object. */
export function blockResponse(block: StoredBlock, hasChildren: boolean): JsonObject {
  const payload = block.payload.rich_text ? { ...block.payload, rich_text: richTextResponse(block.payload.rich_text) } : block.payload;
  return {
    object: 'block',
    id: block.id,
    parent: block.parentType === 'page_id' ? { type: 'page_id', page_id: block.parentId } : { type: 'block_id', block_id: block.parentId },
    created_time: block.createdTime,
    last_edited_time: block.createdTime,
    has_children: hasChildren,
    in_trash: block.inTrash,
    archived: block.inTrash,
    type: block.type,
    [block.type]: payload,
  };
}

/** A database object: it lists its data sources (by id and name) and has no properties of its own. */
export function databaseResponse(database: StoredDatabase, sourceName: (id: string) => string): JsonObject {
  return {
    object: 'database',
    id: database.id,
    title: database.title,
    description: [],
    parent: { type: 'page_id', page_id: database.parentPageId },
    is_inline: false,
    in_trash: database.inTrash,
    is_locked: false,
    created_time: database.createdTime,
    last_edited_time: database.createdTime,
    data_sources: database.dataSourceIds.map((id) => ({ id, name: sourceName(id) })),
    icon: null,
    cover: null,
    url: notionUrl(database.id),
    public_url: null,
  };
}

/** A data source object with its property schema. */
export function dataSourceResponse(source: StoredDataSource, databasePageId: string | undefined): JsonObject {
  return {
    object: 'data_source',
    id: source.id,
    title: source.title,
    description: [],
    parent: { type: 'database_id', database_id: source.databaseId },
    database_parent: { type: 'page_id', page_id: databasePageId },
    properties: source.properties,
    in_trash: false,
    archived: false,
  };
}
