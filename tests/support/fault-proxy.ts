/**
 * A TCP proxy in front of a server that can go away, as the Postgres server does in a restart or a managed failover:
 * `down()` drops every connection and turns new ones away, `up()` serves again. `loseAnswerTo(marker)` goes down the
 * moment the server answers the next statement whose text holds `marker`: the server ran it (and committed it), and
 * the client never hears so, as when a connection drops mid-statement.
 *
 * Turned away how: by default the proxy keeps its port and resets each new connection at once (the client sees
 * ECONNRESET, as behind a failover's load balancer). With `refuse`, it stops listening (ECONNREFUSED, as from a
 * restarting server) — but the port is free meanwhile, and on a machine running other tests in parallel one of them
 * took it: its process could not listen, and the proxy could not listen again. Refusing is for a run alone (chaos).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { StatementTexts } from './postgres-frontend.ts';

/** A proxy on 127.0.0.1 in front of `target`. */
export interface FaultProxy {
  readonly port: number;
  /** Goes down as the server answers the next statement holding `marker`; true once it went down, false if disarmed. */
  loseAnswerTo(marker: string): Promise<boolean>;
  /** Forgets the statement `loseAnswerTo` waits for (its promise gives false). */
  disarm(): void;
  /**
   * Drops each connection that runs a statement holding `marker`, before the server sees it, while every other
   * statement passes (null: all pass again): the database away for that statement alone, deterministically.
   */
  dropStatements(marker: string | null): void;
  /** `url` (a connection string) pointed at the proxy instead of its server. */
  through(url: string): string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** How new connections are turned away while the proxy is down. */
export type TurnedAway = 'reset' | 'refuse';

/** Starts a proxy to `target` (host and port). */
export async function startFaultProxy(target: { host: string; port: number }, options: { turnedAway?: TurnedAway } = {}): Promise<FaultProxy> {
  const turnedAway = options.turnedAway ?? 'reset';
  const sockets = new Set<Socket>();
  let serving = true;
  const statements = new StatementTexts();
  let armed: { marker: string; lost: (went: boolean) => void } | null = null;
  let dropped: string | null = null;
  const server: Server = createServer((client) => {
    if (!serving) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    // The server's answer to the armed statement is not passed on: the proxy goes down instead.
    let answerToLose = false;
    let dropping = false;
    const reader = statements.connection((text) => {
      if (armed && text.includes(armed.marker)) answerToLose = true;
      if (dropped !== null && text.includes(dropped)) dropping = true;
    });
    client.on('data', (chunk: Buffer) => {
      reader(chunk);
      if (!dropping) return void upstream.write(chunk);
      client.destroy();
      upstream.destroy();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!answerToLose) return void client.write(chunk);
      const lost = armed?.lost;
      armed = null;
      serving = false;
      dropAll();
      lost?.(true);
    });
  });
  let port = 0;
  const listen = () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen();
  port = (server.address() as { port: number }).port;
  let listening = true;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const stopListening = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    dropAll();
    await closed;
  };
  return {
    port,
    loseAnswerTo(marker) {
      armed?.lost(false);
      return new Promise<boolean>((resolve) => (armed = { marker, lost: resolve }));
    },
    disarm() {
      armed?.lost(false);
      armed = null;
    },
    dropStatements(marker) {
      dropped = marker;
    },
    through(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    async down() {
      serving = false;
      if (turnedAway === 'refuse') return stopListening();
      dropAll();
    },
    async up() {
      serving = true;
      if (listening) return;
      await listen();
      listening = true;
    },
    close: stopListening,
  };
}
