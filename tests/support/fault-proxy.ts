/**
 * A TCP proxy in front of a server that can go away, as the Postgres server does in a restart or a managed failover:
 * `down()` drops every connection and stops listening (new connections are refused, ECONNREFUSED), `up()` listens on
 * the same port again.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A proxy on 127.0.0.1 in front of `target`. */
export interface FaultProxy {
  readonly port: number;
  /** `url` (a connection string) pointed at the proxy instead of its server. */
  through(url: string): string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (host and port). */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
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
    client.pipe(upstream).pipe(client);
  });
  const listen = () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  let port = 0;
  await listen();
  port = (server.address() as { port: number }).port;
  let listening = true;
  const down = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    through(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    down,
    async up() {
      if (listening) return;
      await listen();
      listening = true;
    },
    close: down,
  };
}
