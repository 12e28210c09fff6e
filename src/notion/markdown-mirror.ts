/** The local markdown mirror under `DATA_DIR/docs/<sessionId>/{record,tldr}.md`, always written. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedSerialQueue } from '../core/keyed-serial-queue.ts';

/** A kind of mirrored document. */
export type MirroredKind = 'record' | 'tldr';

/** Temp files this process made: each write's own name. */
let temporaryFiles = 0;

/** Reads and writes the mirror files. */
export class MarkdownMirror {
  /** Writes of one file, in the order they were asked for: two at once would share a temp file, and the older could land last. */
  private readonly writes = new KeyedSerialQueue();

  constructor(private readonly dataDirectory: string) {}

  /** The path of a session document. */
  pathOf(sessionId: string, kind: MirroredKind): string {
    return join(this.dataDirectory, 'docs', safeSegment(sessionId), `${kind}.md`);
  }

  /** Writes a document atomically (temp file + rename), so a reader never sees half of it. */
  async write(sessionId: string, kind: MirroredKind, markdown: string): Promise<void> {
    const path = this.pathOf(sessionId, kind);
    await this.writes.run(path, async () => {
      await mkdir(join(this.dataDirectory, 'docs', safeSegment(sessionId)), { recursive: true });
      // Unique per write as well as per process: another mirror of this process (the moderation's) may write the file too.
      temporaryFiles += 1;
      const temporary = `${path}.${process.pid}.${temporaryFiles}.tmp`;
      await writeFile(temporary, markdown, 'utf8');
      await rename(temporary, path);
    });
  }

  /** A document, or null when it was never written. */
  async read(sessionId: string, kind: MirroredKind): Promise<string | null> {
    try {
      return await readFile(this.pathOf(sessionId, kind), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

/** A session id as a single safe path segment (ids are ours, but a path never trusts them). */
function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}
