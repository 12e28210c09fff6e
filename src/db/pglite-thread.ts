import { Worker } from 'node:worker_threads';
import { BrainstormError } from '../core/errors.ts';
import type { PgliteEngine } from './pglite-dialect.ts';
import { takePrestartedPgliteWorker } from './pglite-worker-prestart.mjs';

/** The worker's module; plain JavaScript: no TypeScript loader hooks needed there. */
const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

/** Where PGlite on its thread keeps its data, and what it starts with. */
export interface PgliteThreadOptions {
  /** A data directory; absent: in memory. */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from, e.g. a migrated template. */
  loadDataDir?: Blob;
  /** A template directory the thread copies into the fresh `dataDir` before it opens it (see templateSeedFor). */
  seedFrom?: string;
  /** Postgres settings added to PGlite's defaults (`-c name=value` pairs). */
  startParams?: string[];
}

interface Reply {
  id: number;
  rows?: unknown[];
  affectedRows?: number;
  error?: { message: string; name?: string } & Record<string, unknown>;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/**
 * A statement PGlite refused, with the fields Postgres gave it (constraint, detail...). Its `code` is Postgres's
 * SQLSTATE (`23505` for a unique violation), as callers check it on the main-thread PGlite and on `pg`.
 */
export class PgliteThreadError extends BrainstormError<string> {
  constructor(fields: NonNullable<Reply['error']>) {
    super(typeof fields['code'] === 'string' ? fields['code'] : 'database_error', fields.message);
    const { code: _code, ...rest } = fields;
    Object.assign(this, rest);
    this.name = fields.name ?? 'Error';
  }
}

/**
 * PGlite on a worker thread: every statement runs there, so its WebAssembly work never blocks this thread's event
 * loop, and runs on another core while this one streams answers. Same statements, same single connection, same
 * files on disk: only the thread differs.
 */
export class PgliteThread implements PgliteEngine {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;
  private isClosed = false;
  readonly waitReady: Promise<void>;

  constructor(options: PgliteThreadOptions = {}) {
    // npm start starts one before it loads the app (see pglite-worker-prestart.mjs).
    this.worker = takePrestartedPgliteWorker(WORKER_URL) ?? new Worker(WORKER_URL, { execArgv: [] });
    // Like an embedded PGlite, an idle open database does not keep the process alive; a statement in flight does.
    this.worker.unref();
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the PGlite thread exited (code ${code})`)));
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if (reply.error) waiter.reject(new PgliteThreadError(reply.error));
      else waiter.resolve(reply);
    });
    this.waitReady = this.send({ type: 'open', ...options }).then(() => undefined);
    // A failed start surfaces on the first statement (and on waitReady), never as an unhandled rejection.
    this.waitReady.catch(() => undefined);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The thread runs messages one at a time in the order they came, its start first: see `runsInSendOrder`. */
  readonly runsInSendOrder = true;

  async query<R>(sql: string, params: unknown[] = []): Promise<{ rows: R[]; affectedRows?: number }> {
    this.assertOpen();
    // Sent now, before any await: the order of calls is the order the thread runs them in.
    const reply = await this.send({ type: 'query', sql, params });
    return { rows: (reply.rows ?? []) as R[], affectedRows: reply.affectedRows ?? 0 };
  }

  async exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]> {
    this.assertOpen();
    const reply = await this.send({ type: 'exec', sql });
    return [{ rows: reply.rows ?? [], affectedRows: reply.affectedRows ?? 0 }];
  }

  /** Closes PGlite cleanly (its files flushed), then ends the thread. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      if (!this.failure) await this.send({ type: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }

  /** A statement after `close` fails at once: the thread would never answer it. */
  private assertOpen(): void {
    if (this.isClosed) throw new BrainstormError('internal', 'the database is closed');
  }

  private send(message: Record<string, unknown>): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /** The thread died: every statement waiting on it fails, and so does every later one. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
