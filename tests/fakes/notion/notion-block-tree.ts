/** The fake Notion's blocks and the order of every page's and block's children. */
import type { FakeBlockContent } from './fake-markdown.ts';
import type { JsonObject, StoredBlock } from './notion-records.ts';
import { blockResponse } from './notion-responses.ts';

/** How new blocks get their id and time. */
export interface BlockStamps {
  nextId(): string;
  timestamp(): string;
}

/** Blocks by id, and the ordered child ids of every page or block (pages hold their children here too). */
export class BlockTree {
  private readonly blocks = new Map<string, StoredBlock>();
  private readonly children = new Map<string, string[]>();

  constructor(private readonly stamps: BlockStamps) {}

  /** A block, trashed or not. */
  get(id: string): StoredBlock | undefined {
    return this.blocks.get(id);
  }

  /** The ids of a container's children, trashed ones included. */
  childIds(parentId: string): string[] {
    return this.children.get(parentId) ?? [];
  }

  /** A container's children that are not in the trash, in order. */
  liveChildren(parentId: string): StoredBlock[] {
    return this.childIds(parentId)
      .map((blockId) => this.blocks.get(blockId))
      .filter((block): block is StoredBlock => !!block && !block.inTrash);
  }

  /** Starts an empty container (a new page). */
  open(parentId: string): void {
    this.children.set(parentId, []);
  }

  /** Trashes a container's children and leaves it empty. */
  trashChildren(parentId: string): void {
    for (const block of this.liveChildren(parentId)) block.inTrash = true;
    this.children.set(parentId, []);
  }

  /** Forgets a block or page and its list of children. */
  forget(id: string): void {
    this.blocks.delete(id);
    this.children.delete(id);
  }

  /** Stores blocks (and their nested children) at the end of a container; `fixedId` names a child page's block. */
  append(parentId: string, parentType: 'page_id' | 'block_id', contents: FakeBlockContent[], fixedId?: string): StoredBlock[] {
    const list = this.childIds(parentId);
    const stored = contents.map((content) => {
      const block: StoredBlock = {
        id: fixedId ?? this.stamps.nextId(),
        parentId,
        parentType,
        type: content.type,
        payload: content.payload,
        inTrash: false,
        createdTime: this.stamps.timestamp(),
      };
      this.blocks.set(block.id, block);
      list.push(block.id);
      this.children.set(block.id, this.childIds(block.id));
      if (content.children.length > 0) this.append(block.id, 'block_id', content.children);
      return block;
    });
    this.children.set(parentId, list);
    return stored;
  }

  /** A container's live content as it was written (child pages without theirs). */
  contentOf(parentId: string): FakeBlockContent[] {
    return this.liveChildren(parentId).map((block) => ({
      type: block.type,
      payload: block.payload,
      children: block.type === 'child_page' ? [] : this.contentOf(block.id),
    }));
  }

  /** A block object; a child page's block has children while the page has any, trashed or not. */
  response(block: StoredBlock): JsonObject {
    const children = this.childIds(block.id);
    const hasChildren = children.some((childId) => !this.blocks.get(childId)?.inTrash) || (block.type === 'child_page' && children.length > 0);
    return blockResponse(block, hasChildren);
  }
}
