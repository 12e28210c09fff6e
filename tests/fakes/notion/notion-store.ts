/** The fake Notion workspace: pages, databases, data sources and blocks, kept in memory. */
import { randomBytes } from 'node:crypto';
import { plainText, type FakeBlockContent } from './fake-markdown.ts';
import { addProperties, matchesFilter, propertyValues } from './notion-properties.ts';
import type { FakeParent, JsonObject, StoredDatabase, StoredDataSource, StoredPage } from './notion-records.ts';
import { BlockTree } from './notion-block-tree.ts';
import { databaseResponse, dataSourceResponse, pageAsBlock, pageResponse } from './notion-responses.ts';
import { FakeNotionError, normaliseId, paginate, richTextResponse } from './notion-values.ts';

export { FakeNotionError } from './notion-values.ts';

/** The person who shared the parent page, and who edits pages in tests. */
export const PERSON_USER_ID = '6f1c2e4a-0000-4000-8000-00000000a11e';

/** The in-memory workspace and the operations the REST routes call. */
export class NotionStore {
  private readonly pages = new Map<string, StoredPage>();
  private readonly databases = new Map<string, StoredDatabase>();
  private readonly dataSources = new Map<string, StoredDataSource>();
  private counter = 0;
  /** Ids are unique across fakes, as Notion's are across workspaces. */
  private readonly prefix = randomBytes(4).toString('hex');

  private readonly tree = new BlockTree({ nextId: () => this.nextId(), timestamp: () => this.timestamp() });

  /** The integration's bot user: the author of every change made through the API. */
  readonly botUserId = this.nextId();

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
      createdBy: PERSON_USER_ID,
      lastEditedBy: PERSON_USER_ID,
    });
    this.tree.open(id);
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
      this.tree.append(parentPage.id, 'page_id', [{ type: 'child_page', payload: { title: plainText(title?.title) }, children: [] }], id);
    } else if (typeof parent.data_source_id === 'string' || typeof parent.database_id === 'string') {
      const source = typeof parent.data_source_id === 'string' ? this.dataSource(parent.data_source_id) : this.singleSourceOf(String(parent.database_id));
      storedParent = { type: 'data_source_id', data_source_id: source.id, database_id: source.databaseId };
      storedProperties = propertyValues(source, properties ?? {});
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
      createdBy: this.botUserId,
      lastEditedBy: this.botUserId,
    };
    this.pages.set(id, page);
    this.tree.open(id);
    this.tree.append(id, 'page_id', children);
    return pageResponse(page);
  }

  /** A page object. */
  retrievePage(id: string): JsonObject {
    return pageResponse(this.page(id));
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
        Object.assign(page.properties, propertyValues(this.dataSource(page.parent.data_source_id), body.properties as JsonObject));
      } else {
        const title = (body.properties as JsonObject).title as JsonObject | undefined;
        if (title) page.properties.title = { id: 'title', type: 'title', title: richTextResponse(title.title) };
      }
    }
    this.touch(page, this.botUserId);
    return pageResponse(page);
  }

  /** The content blocks of a live page, as stored (for markdown rendering). */
  pageContent(id: string): FakeBlockContent[] {
    return this.tree.contentOf(this.livePage(id).id);
  }

  /** Replaces a page's content; refuses to delete child pages unless allowed. */
  replacePageContent(id: string, blocks: FakeBlockContent[], allowDeleting: boolean): void {
    const page = this.livePage(id);
    const existing = this.tree.liveChildren(page.id);
    if (!allowDeleting && existing.some((block) => block.type === 'child_page' || block.type === 'child_database')) {
      throw new FakeNotionError(400, 'validation_error', 'The update would delete child pages or databases; set allow_deleting_content to true.');
    }
    this.tree.trashChildren(page.id);
    this.tree.append(page.id, 'page_id', blocks);
    this.touch(page, this.botUserId);
  }

  /** A person replaces a page's content in Notion's editor (tests): the page is then last edited by them. */
  editAsPerson(id: string, blocks: FakeBlockContent[], personId = PERSON_USER_ID): void {
    this.replacePageContent(id, blocks, true);
    this.touch(this.page(id), personId);
  }

  private touch(page: StoredPage, userId: string): void {
    page.lastEditedTime = this.timestamp();
    page.lastEditedBy = userId;
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
    addProperties(source, properties);
    this.dataSources.set(sourceId, source);
    this.tree.append(parentPage.id, 'page_id', [{ type: 'child_database', payload: { title: plainText(title) }, children: [] }], id);
    return this.databaseObject(this.databases.get(id) as StoredDatabase);
  }

  /** A database object: under 2025-09-03 it lists its data sources and has no properties. */
  retrieveDatabase(id: string): JsonObject {
    const database = this.databases.get(normaliseId(id));
    if (!database || database.inTrash) throw this.notFound('database', id);
    return this.databaseObject(database);
  }

  /** A data source object with its property schema. */
  retrieveDataSource(id: string): JsonObject {
    return this.dataSourceObject(this.dataSource(id));
  }

  /** Adds or changes properties of a data source. */
  updateDataSource(id: string, body: JsonObject): JsonObject {
    const source = this.dataSource(id);
    if (body.properties && typeof body.properties === 'object') addProperties(source, body.properties as JsonObject);
    return this.dataSourceObject(source);
  }

  /** Rows of a data source, optionally filtered by one property's `equals`, paginated. */
  queryDataSource(id: string, body: JsonObject): JsonObject {
    const source = this.dataSource(id);
    const filter = body.filter as JsonObject | undefined;
    const rows = [...this.pages.values()].filter(
      (page) => !page.inTrash && page.parent.type === 'data_source_id' && page.parent.data_source_id === source.id && matchesFilter(page, filter),
    );
    return paginate(
      rows.map((page) => pageResponse(page)),
      body.start_cursor,
      body.page_size,
      'page_or_data_source',
    );
  }

  // ------------------------------------------------------------------ blocks

  /** A block object. */
  retrieveBlock(id: string): JsonObject {
    const block = this.tree.get(normaliseId(id));
    if (!block) {
      if (this.pages.has(normaliseId(id))) return this.pageBlockObject(this.page(id));
      throw this.notFound('block', id);
    }
    return this.tree.response(block);
  }

  /** Children of a page or block, paginated (`start_cursor`, `page_size` at most 100). */
  listChildren(id: string, startCursor: unknown, pageSize: unknown): JsonObject {
    const parentId = this.container(id);
    return paginate(
      this.tree.liveChildren(parentId).map((block) => this.tree.response(block)),
      startCursor,
      pageSize,
      'block',
    );
  }

  /** Appends children to a page or block. */
  appendChildren(id: string, blocks: FakeBlockContent[]): JsonObject {
    const parentId = this.container(id);
    const parentType = this.pages.has(parentId) ? 'page_id' : 'block_id';
    const appended = this.tree.append(parentId, parentType, blocks);
    const page = this.pages.get(parentId);
    if (page) this.touch(page, this.botUserId);
    return { object: 'list', results: appended.map((block) => this.tree.response(block)), next_cursor: null, has_more: false, type: 'block', block: {} };
  }

  /** Moves a block (or a child page) to the trash. */
  deleteBlock(id: string): JsonObject {
    const normalised = normaliseId(id);
    if (this.pages.has(normalised)) {
      this.updatePage(normalised, { in_trash: true });
      return this.pageBlockObject(this.page(normalised));
    }
    const block = this.tree.get(normalised);
    if (!block || block.inTrash) throw this.notFound('block', id);
    block.inTrash = true;
    return this.tree.response(block);
  }

  /** Moves a page to the trash as a person does in Notion (tests): it still retrieves, writes are refused. */
  trashPage(id: string): void {
    this.updatePage(id, { in_trash: true });
  }

  /** Deletes a page for good, or unshares it (tests): every request for it answers 404 object_not_found. */
  purgePage(id: string): void {
    const normalised = normaliseId(id);
    for (const child of this.tree.childIds(normalised)) if (this.pages.has(child)) this.purgePage(child);
    this.pages.delete(normalised);
    this.tree.forget(normalised);
  }

  /** Every live page whose title is `title` (tests). */
  findPagesByTitle(title: string): JsonObject[] {
    return [...this.pages.values()]
      .filter(
        (page) =>
          !page.inTrash && plainText((page.properties.title ?? Object.values(page.properties).find((value) => value.type === 'title'))?.title) === title,
      )
      .map((page) => pageResponse(page));
  }

  /** Every live row of every data source (tests). */
  allRows(): JsonObject[] {
    return [...this.pages.values()].filter((page) => !page.inTrash && page.parent.type === 'data_source_id').map((page) => pageResponse(page));
  }

  /** Every live page, as Notion answers for it (tests look for pages nobody keeps an id of). */
  livePages(): JsonObject[] {
    return [...this.pages.values()].filter((page) => !page.inTrash).map((page) => pageResponse(page));
  }

  /** How many databases exist (tests check none is created twice). */
  get databaseCount(): number {
    return [...this.databases.values()].filter((database) => !database.inTrash).length;
  }

  // ------------------------------------------------------------------ internals

  /** Trashing a page trashes the pages under it with it, as Notion does (and restoring restores them). */
  private setChildBlockTrash(pageId: string, trash: boolean): void {
    const block = this.tree.get(pageId);
    if (block) block.inTrash = trash;
    for (const childId of this.tree.childIds(pageId)) {
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
    const block = this.tree.get(normalised);
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

  private pageBlockObject(page: StoredPage): JsonObject {
    return pageAsBlock(page, this.tree.childIds(page.id).length > 0);
  }

  private databaseObject(database: StoredDatabase): JsonObject {
    return databaseResponse(database, (id) => plainText(this.dataSources.get(id)?.title));
  }

  private dataSourceObject(source: StoredDataSource): JsonObject {
    return dataSourceResponse(source, this.databases.get(source.databaseId)?.parentPageId);
  }
}
