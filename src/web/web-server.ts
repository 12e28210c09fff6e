/** The web console's HTTP server: the hono app of `console-app.ts`, served on node:http by @hono/node-server. */
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createConsoleApp, DEFAULT_WEB_PORT, type WebServerOptions } from './console-app.ts';
import { isLoopbackHost } from './access-guard.ts';
import { WebServerError } from './web-errors.ts';

export { DEFAULT_WEB_PORT, DEMO_MODE_NOTICE, createConsoleApp, type ConsoleAppOptions, type WebServerOptions } from './console-app.ts';

/** A running (or startable) console server. */
export interface WebServer {
  /** The console's base URL, e.g. `http://127.0.0.1:7420` (known after `start()` when the port is 0). */
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Builds the console server; `start()` refuses a non-loopback host without a token (`web_token_required`). */
export function createWebServer(options: WebServerOptions): WebServer {
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? DEFAULT_WEB_PORT;
  let lifetime = new AbortController();
  let server: Server | null = null;

  return {
    get url() {
      return formatUrl(host, port);
    },
    async start() {
      if (!isLoopbackHost(host) && !options.token) {
        throw new WebServerError(
          'web_token_required',
          `The console would listen on ${host}, which other machines can reach: set WEB_TOKEN, or WEB_HOST=127.0.0.1.`,
        );
      }
      lifetime = new AbortController();
      const app = createConsoleApp({ ...options, boundPort: () => port, shutdown: lifetime.signal });
      // The process also runs the model, Discord and Notion clients: hono must not swap the global Request/Response.
      server = createServer(getRequestListener(app.fetch, { hostname: host, overrideGlobalObjects: false }));
      port = await listen(server, host, port);
      options.localTransport?.setConsoleUrl(formatUrl(host, port));
    },
    async stop() {
      lifetime.abort();
      const current = server;
      server = null;
      if (!current) return;
      await new Promise<void>((resolve) => {
        current.close(() => resolve());
        current.closeAllConnections();
      });
    },
  };
}

/** Listens and answers the port it got (the asked one, or a free one for 0). */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) =>
      reject(new WebServerError('listen_failed', `The console could not listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
