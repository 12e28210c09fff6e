/** The local markdown mirror under `DATA_DIR/docs/<sessionId>/{record,tldr}.md`, always written. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A kind of mirrored document. */
export type MirroredKind = 'record' | 'tldr';

/** Reads and writes the mirror files. */
export class MarkdownMirror {
  constructor(private readonly dataDirectory: string) {}

  /** The path of a session document. */
  pathOf(sessionId: string, kind: MirroredKind): string {
    return join(this.dataDirectory, 'docs', safeSegment(sessionId), `${kind}.md`);
  }

  /** Writes a document atomically (temp file + rename), so a reader never sees half of it. */
  async write(sessionId: string, kind: MirroredKind, markdown: string): Promise<void> {
    const path = this.pathOf(sessionId, kind);
    await mkdir(join(this.dataDirectory, 'docs', safeSegment(sessionId)), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, markdown, 'utf8');
    await rename(temporary, path);
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
