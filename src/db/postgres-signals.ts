/**
 * Hearing the notices the processes that share one Postgres server send each other (`pg_notify`, sent by the
 * repositories): a wake-up, never the only way work is found. A notice sent while a listener is reconnecting is lost
 * (Postgres keeps none for a session that is not listening), so whoever listens still polls; the notice only spares
 * the wait for the next poll.
 */
import pg from 'pg';

/** Notices on named channels from the processes sharing a database. */
export interface DatabaseSignals {
  /** Calls `onSignal` with the payload of each notice on `channel`; returns the function that stops it. */
  listen(channel: string, onSignal: (payload: string) => void): () => void;
  /**
   * Calls `onListening` each time the listening connection is made, the first time too: notices sent before it (while
   * it was lost, or before it was first made) were not heard, and whoever keeps state from them reads it again.
   */
  onListening(onListening: () => void): () => void;
  /** Whether notices are heard now (the listening connection is up). */
  readonly listening: boolean;
  /** Stops listening (the connection closes). */
  close(): Promise<void>;
}

/** Options of the Postgres signals. */
export interface PostgresSignalsOptions {
  /** The server the listening connection (one of its own, held open) is made to. */
  connectionString: string;
  /** How long a lost listening connection waits before it is made again (real time). Default 1 s. */
  reconnectMs?: number;
}

/** `DatabaseSignals` on a Postgres server: one connection of its own listens while anyone does. */
export class PostgresSignals implements DatabaseSignals {
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly listeningHandlers = new Set<() => void>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  /** The connection being made (until it listens or fails). */
  private pending: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: PostgresSignalsOptions) {}

  listen(channel: string, onSignal: (payload: string) => void): () => void {
    const handlers = this.handlers.get(channel) ?? new Set();
    handlers.add(onSignal);
    this.handlers.set(channel, handlers);
    // A connection being made listens to every channel known once it is up (see `connect`).
    if (this.client && handlers.size === 1) void this.client.query(`LISTEN ${quoted(channel)}`).catch(() => this.lost());
    else if (!this.client) this.connect();
    return () => void handlers.delete(onSignal);
  }

  onListening(onListening: () => void): () => void {
    this.listeningHandlers.add(onListening);
    if (!this.client) this.connect();
    return () => void this.listeningHandlers.delete(onListening);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    // A connection still being made is ended too, not waited for: a server that does not answer would hold the stop.
    const clients = [this.client, this.pending].filter((client) => client !== null);
    this.client = null;
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }

  /** Whether the listening connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Resolves once the connection being made is up or failed; true when it listens (tests). */
  async settled(): Promise<boolean> {
    await this.connecting;
    return this.listening;
  }

  private connect(): void {
    if (this.connecting || this.closed) return;
    // Keepalives after 10 s of silence: a connection cut without a word (a failover) is found dead in a minute, not in
    // the two hours the system's default waits.
    const client = new pg.Client({ connectionString: this.options.connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    // Without a listener pg would throw a dropped connection's error out of the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (notice) => {
      for (const handler of this.handlers.get(notice.channel) ?? []) handler(notice.payload ?? '');
    });
    this.pending = client;
    this.connecting = (async () => {
      try {
        await client.connect();
        // Channels added while a LISTEN was on its way are listened to as well: the loop sees the map as it grows.
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoted(channel)}`);
        if (this.closed) await client.end();
        else {
          this.client = client;
          for (const handler of this.listeningHandlers) handler();
        }
      } catch {
        // The server is away (an outage, a restart): tried again after a pause, the poll covering meanwhile.
        await client.end().catch(() => undefined);
        this.scheduleRetry();
      } finally {
        this.pending = null;
        this.connecting = null;
      }
    })();
  }

  /** The listening connection went away (a restart of the server, a network cut): it is made again after a pause. */
  private lost(client: pg.Client | null = this.client): void {
    if (client === null || client !== this.client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, this.options.reconnectMs ?? 1_000);
    this.retry.unref();
  }
}

/** A channel name as a quoted identifier (LISTEN takes no parameter). */
function quoted(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}
