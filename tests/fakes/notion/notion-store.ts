/** The fake Notion workspace: pages, databases, data sources and blocks, kept in memory. */
import { randomBytes } from 'node:crypto';
import { plainText, type FakeBlockContent } from './fake-markdown.ts';
import { FakeNotionError, normaliseId, paginate, propertyValue, richTextResponse } from './notion-values.ts';

export { FakeNotionError } from './notion-values.ts';

type JsonObject = Record<string, unknown>;

/** A page or block parent. */
export type FakeParent =
  | { type: 'page_id'; page_id: string }
  | { type: 'block_id'; block_id: string }
  | { type: 'data_source_id'; data_source_id: string; database_id: string }
  | { type: 'workspace'; workspace: true };

interface StoredPage {
  id: string;
  parent: FakeParent;
  properties: Record<string, JsonObject>;
  inTrash: boolean;
  createdTime: string;
  lastEditedTime: string;
}

interface StoredBlock {
  id: string;
  parentId: string;
  parentType: 'page_id' | 'block_id';
  type: string;
  payload: JsonObject;
  inTrash: boolean;
  createdTime: string;
}

interface StoredDatabase {
  id: string;
  parentPageId: string;
  title: JsonObject[];
  dataSourceIds: string[];
  inTrash: boolean;
  createdTime: string;
}

interface StoredDataSource {
  id: string;
  databaseId: string;
  title: JsonObject[];
  properties: Record<string, JsonObject>;
}

const PROPERTY_TYPES = ['title', 'rich_text', 'number', 'select', 'multi_select', 'date', 'url', 'checkbox', 'status'];

/** The in-memory workspace and the operations the REST routes call. */
export class NotionStore {
  private readonly pages = new Map<string, StoredPage>();
  private readonly blocks = new Map<string, StoredBlock>();
  private readonly databases = new Map<string, StoredDatabase>();
  private readonly dataSources = new Map<string, StoredDataSource>();
  /** Ordered child block ids of every page or block. */
  private readonly children = new Map<string, string[]>();
  private counter = 0;
  /** Ids are unique across fakes, as Notion's are across workspaces. */
  private readonly prefix = randomBytes(4).toString('hex');

  constructor(private readonly now: () => Date) {}

  private nextId(): string {
    this.counter += 1;
    return `${this.prefix}-0000-4000-8000-${this.counter.toString(16).padStart(12, '0')}`;
  }

  private timestamp(): string {
    return this.now().toISOString();
  }

  /** Seeds a top-level page shared with the integration (the parent page a person shares). */
  seedPage(title: string): string {
    const id = this.nextId();
    this.pages.set(id, {
      id,
      parent: { type: 'workspace', workspace: true },
      properties: { title: { id: 'title', type: 'title', title: richTextResponse([{ text: { content: title } }]) } },
      inTrash: false,
      createdTime: this.timestamp(),
      lastEditedTime: this.timestamp(),
    });
    this.children.set(id, []);
    return id;
  }

  // ------------------------------------------------------------------ pages

  /** Creates a page under a page or a data source, with optional children. */
  createPage(parent: JsonObject, properties: JsonObject | undefined, children: FakeBlockContent[]): JsonObject {
    const id = this.nextId();
    let storedParent: FakeParent;
    let storedProperties: Record<string, JsonObject>;
    if (typeof parent.page_id === 'string') {
      const parentPage = this.livePage(parent.page_id);
      storedParent = { type: 'page_id', page_id: parentPage.id };
      const title = (properties?.title ?? properties?.Name) as JsonObject | undefined;
      storedProperties = { title: { id: 'title', type: 'title', title: richTextResponse(title?.title) } };
      this.appendStored(parentPage.id, 'page_id', [{ type: 'child_page', payload: { title: plainText(title?.title) }, children: [] }], id);
    } else if (typeof parent.data_source_id === 'string' || typeof parent.database_id === 'string') {
      const source = typeof parent.data_source_id === 'string' ? this.dataSource(parent.data_source_id) : this.singleSourceOf(String(parent.database_id));
      storedParent = { type: 'data_source_id', data_source_id: source.id, database_id: source.databaseId };
      storedProperties = this.propertyValues(source, properties ?? {});
    } else {
      throw new FakeNotionError(400, 'validation_error', 'body failed validation: body.parent should be defined.');
    }
    const page: StoredPage = {
      id,
      parent: storedParent,
      properties: storedProperties,
      inTrash: false,
      createdTime: this.timestamp(),
      lastEditedTime: this.timestamp(),
    };
    this.pages.set(id, page);
    this.children.set(id, []);
    this.appendStored(id, 'page_id', children);
    return this.pageResponse(page);
  }

  /** A page object. */
  retrievePage(id: string): JsonObject {
    return this.pageResponse(this.page(id));
  }

  /** Updates properties or moves a page to / from the trash. */
  updatePage(id: string, body: JsonObject): JsonObject {
    const page = this.page(id);
    const trash = body.in_trash ?? body.archived;
    if (page.inTrash && trash !== false)
      throw new FakeNotionError(400, 'validation_error', "Can't edit block that is archived. You must unarchive the block before editing.");
    if (typeof trash === 'boolean') {
      page.inTrash = trash;
      this.setChildBlockTrash(page.id, trash);
    }
    if (body.properties && typeof body.properties === 'object') {
      if (page.parent.type === 'data_source_id') {
        Object.assign(page.properties, this.propertyValues(this.dataSource(page.parent.data_source_id), body.properties as JsonObject));
      } else {
        const title = (body.properties as JsonObject).title as JsonObject | undefined;
        if (title) page.properties.title = { id: 'title', type: 'title', title: richTextResponse(title.title) };
      }
    }
    page.lastEditedTime = this.timestamp();
    return this.pageResponse(page);
  }

  /** The content blocks of a live page, as stored (for markdown rendering). */
  pageContent(id: string): FakeBlockContent[] {
    return this.contentOf(this.livePage(id).id);
  }

  /** Replaces a page's content; refuses to delete child pages unless allowed. */
  replacePageContent(id: string, blocks: FakeBlockContent[], allowDeleting: boolean): void {
    const page = this.livePage(id);
    const existing = (this.children.get(page.id) ?? [])
      .map((blockId) => this.blocks.get(blockId))
      .filter((block): block is StoredBlock => !!block && !block.inTrash);
    if (!allowDeleting && existing.some((block) => block.type === 'child_page' || block.type === 'child_database')) {
      throw new FakeNotionError(400, 'validation_error', 'The update would delete child pages or databases; set allow_deleting_content to true.');
    }
    for (const block of existing) block.inTrash = true;
    this.children.set(page.id, []);
    this.appendStored(page.id, 'page_id', blocks);
    page.lastEditedTime = this.timestamp();
  }

  // ------------------------------------------------------------------ databases and data sources

  /** Creates a database with its initial data source under a page. */
  createDatabase(body: JsonObject): JsonObject {
    const parent = body.parent as JsonObject | undefined;
    if (!parent || typeof parent.page_id !== 'string')
      throw new FakeNotionError(400, 'validation_error', 'body failed validation: body.parent.page_id should be defined.');
    const parentPage = this.livePage(parent.page_id);
    const initial = (body.initial_data_source ?? {}) as JsonObject;
    const properties = (initial.properties ?? {}) as JsonObject;
    const titles = Object.values(properties).filter((value) => typeof value === 'object' && value !== null && 'title' in value);
    if (titles.length !== 1) throw new FakeNotionError(400, 'validation_error', 'A data source must have exactly one title property.');
    const id = this.nextId();
    const sourceId = this.nextId();
    const title = richTextResponse(body.title);
    this.databases.set(id, { id, parentPageId: parentPage.id, title, dataSourceIds: [sourceId], inTrash: false, createdTime: this.timestamp() });
    const source: StoredDataSource = { id: sourceId, databaseId: id, title, properties: {} };
    this.addProperties(source, properties);
    this.dataSources.set(sourceId, source);
    this.appendStored(parentPage.id, 'page_id', [{ type: 'child_database', payload: { title: plainText(title) }, children: [] }], id);
    return this.databaseResponse(this.databases.get(id) as StoredDatabase);
  }

  /** A database object: under 2025-09-03 it lists its data sources and has no properties. */
  retrieveDatabase(id: string): JsonObject {
    const database = this.databases.get(normaliseId(id));
    if (!database || database.inTrash) throw this.notFound('database', id);
    return this.databaseResponse(database);
  }

  /** A data source object with its property schema. */
  retrieveDataSource(id: string): JsonObject {
    return this.dataSourceResponse(this.dataSource(id));
  }

  /** Adds or changes properties of a data source. */
  updateDataSource(id: string, body: JsonObject): JsonObject {
    const source = this.dataSource(id);
    if (body.properties && typeof body.properties === 'object') this.addProperties(source, body.properties as JsonObject);
    return this.dataSourceResponse(source);
  }

  /** Rows of a data source, optionally filtered by one property's `equals`, paginated. */
  queryDataSource(id: string, body: JsonObject): JsonObject {
    const source = this.dataSource(id);
    const filter = body.filter as JsonObject | undefined;
    const rows = [...this.pages.values()].filter(
      (page) => !page.inTrash && page.parent.type === 'data_source_id' && page.parent.data_source_id === source.id && this.matches(page, filter),
    );
    return paginate(
      rows.map((page) => this.pageResponse(page)),
      body.start_cursor,
      body.page_size,
      'page_or_data_source',
    );
  }

  // ------------------------------------------------------------------ blocks

  /** A block object. */
  retrieveBlock(id: string): JsonObject {
    const block = this.blocks.get(normaliseId(id));
    if (!block) {
      if (this.pages.has(normaliseId(id))) return this.pageAsBlock(this.page(id));
      throw this.notFound('block', id);
    }
    return this.blockResponse(block);
  }

  /** Children of a page or block, paginated (`start_cursor`, `page_size` at most 100). */
  listChildren(id: string, startCursor: unknown, pageSize: unknown): JsonObject {
    const parentId = this.container(id);
    const list = (this.children.get(parentId) ?? [])
      .map((blockId) => this.blocks.get(blockId))
      .filter((block): block is StoredBlock => !!block && !block.inTrash);
    return paginate(
      list.map((block) => this.blockResponse(block)),
      startCursor,
      pageSize,
      'block',
    );
  }

  /** Appends children to a page or block. */
  appendChildren(id: string, blocks: FakeBlockContent[]): JsonObject {
    const parentId = this.container(id);
    const parentType = this.pages.has(parentId) ? 'page_id' : 'block_id';
    const appended = this.appendStored(parentId, parentType, blocks);
    return { object: 'list', results: appended.map((block) => this.blockResponse(block)), next_cursor: null, has_more: false, type: 'block', block: {} };
  }

  /** Moves a block (or a child page) to the trash. */
  deleteBlock(id: string): JsonObject {
    const normalised = normaliseId(id);
    if (this.pages.has(normalised)) {
      this.updatePage(normalised, { in_trash: true });
      return this.pageAsBlock(this.page(normalised));
    }
    const block = this.blocks.get(normalised);
    if (!block || block.inTrash) throw this.notFound('block', id);
    block.inTrash = true;
    return this.blockResponse(block);
  }

  /** Moves a page to the trash as a person does in Notion (tests): it still retrieves, writes are refused. */
  trashPage(id: string): void {
    this.updatePage(id, { in_trash: true });
  }

  /** Deletes a page for good, or unshares it (tests): every request for it answers 404 object_not_found. */
  purgePage(id: string): void {
    const normalised = normaliseId(id);
    for (const child of this.children.get(normalised) ?? []) if (this.pages.has(child)) this.purgePage(child);
    this.pages.delete(normalised);
    this.blocks.delete(normalised);
    this.children.delete(normalised);
  }

  /** Every live page whose title is `title` (tests). */
  findPagesByTitle(title: string): JsonObject[] {
    return [...this.pages.values()]
      .filter(
        (page) =>
          !page.inTrash && plainText((page.properties.title ?? Object.values(page.properties).find((value) => value.type === 'title'))?.title) === title,
      )
      .map((page) => this.pageResponse(page));
  }

  /** Every live row of every data source (tests). */
  allRows(): JsonObject[] {
    return [...this.pages.values()].filter((page) => !page.inTrash && page.parent.type === 'data_source_id').map((page) => this.pageResponse(page));
  }

  /** How many databases exist (tests check none is created twice). */
  get databaseCount(): number {
    return [...this.databases.values()].filter((database) => !database.inTrash).length;
  }

  // ------------------------------------------------------------------ internals

  private appendStored(parentId: string, parentType: 'page_id' | 'block_id', blocks: FakeBlockContent[], fixedId?: string): StoredBlock[] {
    const list = this.children.get(parentId) ?? [];
    const stored = blocks.map((content) => {
      const block: StoredBlock = {
        id: fixedId ?? this.nextId(),
        parentId,
        parentType,
        type: content.type,
        payload: content.payload,
        inTrash: false,
        createdTime: this.timestamp(),
      };
      this.blocks.set(block.id, block);
      list.push(block.id);
      this.children.set(block.id, this.children.get(block.id) ?? []);
      if (content.children.length > 0) this.appendStored(block.id, 'block_id', content.children);
      return block;
    });
    this.children.set(parentId, list);
    return stored;
  }

  private contentOf(parentId: string): FakeBlockContent[] {
    return (this.children.get(parentId) ?? [])
      .map((blockId) => this.blocks.get(blockId))
      .filter((block): block is StoredBlock => !!block && !block.inTrash)
      .map((block) => ({ type: block.type, payload: block.payload, children: block.type === 'child_page' ? [] : this.contentOf(block.id) }));
  }

  /** Trashing a page trashes the pages under it with it, as Notion does (and restoring restores them). */
  private setChildBlockTrash(pageId: string, trash: boolean): void {
    const block = this.blocks.get(pageId);
    if (block) block.inTrash = trash;
    for (const childId of this.children.get(pageId) ?? []) {
      const child = this.pages.get(childId);
      if (child && child.inTrash !== trash) {
        child.inTrash = trash;
        this.setChildBlockTrash(childId, trash);
      }
    }
  }

  private container(id: string): string {
    const normalised = normaliseId(id);
    const page = this.pages.get(normalised);
    if (page) {
      if (page.inTrash) throw this.notFound('block', id);
      return normalised;
    }
    const block = this.blocks.get(normalised);
    if (!block || block.inTrash) throw this.notFound('block', id);
    return normalised;
  }

  private page(id: string): StoredPage {
    const page = this.pages.get(normaliseId(id));
    if (!page) throw this.notFound('page', id);
    return page;
  }

  private livePage(id: string): StoredPage {
    const page = this.page(id);
    if (page.inTrash) throw new FakeNotionError(400, 'validation_error', "Can't edit block that is archived. You must unarchive the block before editing.");
    return page;
  }

  private dataSource(id: string): StoredDataSource {
    const source = this.dataSources.get(normaliseId(id));
    if (!source || this.databases.get(source.databaseId)?.inTrash) throw this.notFound('data_source', id);
    return source;
  }

  private singleSourceOf(databaseId: string): StoredDataSource {
    const database = this.databases.get(normaliseId(databaseId));
    if (!database) throw this.notFound('database', databaseId);
    if (database.dataSourceIds.length !== 1)
      throw new FakeNotionError(400, 'validation_error', 'Database has several data sources; use parent.data_source_id.');
    return this.dataSource(database.dataSourceIds[0] ?? '');
  }

  private notFound(kind: string, id: string): FakeNotionError {
    return new FakeNotionError(
      404,
      'object_not_found',
      `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    );
  }

  private addProperties(source: StoredDataSource, properties: JsonObject): void {
    for (const [name, definition] of Object.entries(properties)) {
      if (definition === null) {
        delete source.properties[name];
        continue;
      }
      const type = PROPERTY_TYPES.find((candidate) => typeof definition === 'object' && candidate in (definition as JsonObject));
      if (!type) throw new FakeNotionError(400, 'validation_error', `body failed validation: property ${name} has no known type.`);
      const config = ((definition as JsonObject)[type] ?? {}) as JsonObject;
      source.properties[name] = {
        id: source.properties[name]?.id ?? `prop${Object.keys(source.properties).length + 1}`,
        name,
        type,
        [type]: type === 'select' || type === 'multi_select' ? { options: config.options ?? [] } : config,
      };
    }
  }

  private propertyValues(source: StoredDataSource, values: JsonObject): Record<string, JsonObject> {
    const result: Record<string, JsonObject> = {};
    for (const [name, value] of Object.entries(values)) {
      const schema = source.properties[name];
      if (!schema) throw new FakeNotionError(400, 'validation_error', `${name} is not a property that exists.`);
      const type = String(schema.type);
      if (typeof value !== 'object' || value === null || !(type in value))
        throw new FakeNotionError(400, 'validation_error', `${name} is expected to be ${type}.`);
      const raw = (value as JsonObject)[type];
      result[name] = { id: schema.id, type, [type]: propertyValue(type, raw, schema) };
    }
    for (const [name, schema] of Object.entries(source.properties)) {
      if (!(name in result))
        result[name] = {
          id: schema.id,
          type: schema.type,
          [String(schema.type)]: String(schema.type) === 'title' || String(schema.type) === 'rich_text' || String(schema.type) === 'multi_select' ? [] : null,
        };
    }
    return result;
  }

  private matches(page: StoredPage, filter: JsonObject | undefined): boolean {
    if (!filter || typeof filter.property !== 'string') return true;
    const value = page.properties[filter.property];
    if (!value) return false;
    const condition = (filter.rich_text ?? filter.title ?? filter.url) as JsonObject | undefined;
    if (!condition || !('equals' in condition)) return true;
    const type = String(value.type);
    const actual = type === 'url' ? value.url : plainText(value[type]);
    return actual === condition.equals;
  }

  private pageResponse(page: StoredPage): JsonObject {
    return {
      object: 'page',
      id: page.id,
      created_time: page.createdTime,
      last_edited_time: page.lastEditedTime,
      parent: page.parent,
      in_trash: page.inTrash,
      archived: page.inTrash,
      is_locked: false,
      properties: page.properties,
      url: `https://www.notion.so/${page.id.replace(/-/g, '')}`,
      public_url: null,
      icon: null,
      cover: null,
    };
  }

  private pageAsBlock(page: StoredPage): JsonObject {
    return {
      object: 'block',
      id: page.id,
      type: 'child_page',
      child_page: { title: plainText(page.properties.title?.title) },
      has_children: (this.children.get(page.id) ?? []).length > 0,
      in_trash: page.inTrash,
      archived: page.inTrash,
      parent: page.parent,
    };
  }

  private blockResponse(block: StoredBlock): JsonObject {
    const hasChildren =
      (this.children.get(block.id) ?? []).some((childId) => !this.blocks.get(childId)?.inTrash) ||
      (block.type === 'child_page' && (this.children.get(block.id) ?? []).length > 0);
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

  private databaseResponse(database: StoredDatabase): JsonObject {
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
      data_sources: database.dataSourceIds.map((id) => ({ id, name: plainText(this.dataSources.get(id)?.title) })),
      icon: null,
      cover: null,
      url: `https://www.notion.so/${database.id.replace(/-/g, '')}`,
      public_url: null,
    };
  }

  private dataSourceResponse(source: StoredDataSource): JsonObject {
    return {
      object: 'data_source',
      id: source.id,
      title: source.title,
      description: [],
      parent: { type: 'database_id', database_id: source.databaseId },
      database_parent: { type: 'page_id', page_id: this.databases.get(source.databaseId)?.parentPageId },
      properties: source.properties,
      in_trash: false,
      archived: false,
    };
  }
}
