/** Headless Chromium for console tests and the bench: Debian's `chromium` driven by playwright-core. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { BROWSER_SUITE_MARK, CHROMIUM_PATH, browserTestsEnabled } from './browser-availability.ts';

/** The repository, where `npm start` runs. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export { BROWSER_SUITE_MARK, CHROMIUM_PATH, INSTALL_BROWSER_COMMAND, browserTestsEnabled } from './browser-availability.ts';

/**
 * `describe` for a suite that drives headless Chromium: on a fresh machine without the browser it is skipped
 * (and named in the closing lines of `npm test`), never failed.
 */
export function describeInBrowser(name: string, suite: () => void): void {
  (browserTestsEnabled() ? describe : describe.skip)(`${name} ${BROWSER_SUITE_MARK}`, suite);
}

/** Where tests write screenshots: an ignored folder (`npm run screenshots` points it at docs/screenshots). */
export const SCREENSHOT_DIRECTORY = process.env.SCREENSHOT_DIR ?? join(fileURLToPath(new URL('../../', import.meta.url)), 'test-results/screenshots');

/** Flags for a quiet, offline, sandbox-free headless run (containers have no user namespaces). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running browser with one page; `close()` also removes its profile. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Starts Chromium with a fresh user-data-dir and opens one page. */
export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'brainstorm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects the page's console errors and failed requests, so a test can assert there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** The app started as `npm start` starts it, in its own process. */
export interface AppProcess {
  url: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` to the app and resolves with its exit code. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

const MODEL_AND_SERVICE_KEYS = ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GROK_API_KEY', 'CURSOR_API_KEY', 'DISCORD_BOT_TOKEN', 'NOTION_API_KEY', 'DATABASE_URL', 'WEB_TOKEN', 'OTEL_EXPORTER_OTLP_ENDPOINT'];

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Spawns `node --import tsx src/index.ts` (what `npm start` runs) with no keys at all, a fresh DATA_DIR and a free
 * WEB_PORT: the first-run experience of a newcomer without a `.env`.
 */
export async function startAppProcess(options: { dataDir?: string; port?: number } = {}): Promise<AppProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'brainstorm-data-'));
  const port = options.port ?? (await freePort());
  const environment: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, WEB_PORT: String(port), WEB_HOST: '127.0.0.1', NODE_ENV: 'development', LOG_LEVEL: 'info' };
  for (const key of MODEL_AND_SERVICE_KEYS) delete environment[key];
  // What `npm start` runs (the bundled sources on plain Node), without npm's own start-up in the figure.
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: REPOSITORY_ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => printed,
    async signal(signal) {
      child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        // Signal the whole process group this helper created (the app and anything it started).
        process.kill(-child.pid, 'SIGTERM');
        const forced = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(forced);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until `GET /healthz` answers 200 (the process is a separate program: there is no event to await,
 * so this polls until a deadline). Returns the milliseconds it took.
 */
export async function waitForHealthy(url: string, timeoutMs = 60_000, intervalMs = 25): Promise<number> {
  const started = performance.now();
  for (;;) {
    const healthy = await fetch(`${url}/healthz`).then((response) => response.status === 200, () => false);
    if (healthy) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
