/** What the fake Notion keeps of pages, blocks, databases and data sources. */

/** A JSON object as the REST routes read and answer it. */
export type JsonObject = Record<string, unknown>;

/** A page or block parent. */
export type FakeParent =
  | { type: 'page_id'; page_id: string }
  | { type: 'block_id'; block_id: string }
  | { type: 'data_source_id'; data_source_id: string; database_id: string }
  | { type: 'workspace'; workspace: true };

/** A page: a child page or a data source's row. */
export interface StoredPage {
  id: string;
  parent: FakeParent;
  properties: Record<string, JsonObject>;
  inTrash: boolean;
  createdTime: string;
  lastEditedTime: string;
  createdBy: string;
  /** The user who last edited the page (the integration's bot user, or a person in tests). */
  lastEditedBy: string;
}

/** A content block (child pages and databases also appear as blocks of their parent). */
export interface StoredBlock {
  id: string;
  parentId: string;
  parentType: 'page_id' | 'block_id';
  type: string;
  payload: JsonObject;
  inTrash: boolean;
  createdTime: string;
}

/** A database: a container of data sources under a page. */
export interface StoredDatabase {
  id: string;
  parentPageId: string;
  title: JsonObject[];
  dataSourceIds: string[];
  inTrash: boolean;
  createdTime: string;
}

/** A data source: the property schema rows are written against. */
export interface StoredDataSource {
  id: string;
  databaseId: string;
  title: JsonObject[];
  properties: Record<string, JsonObject>;
}
