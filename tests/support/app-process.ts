/**
 * The app in its own process, started as `npm start` starts it. Apart from the browser helpers (which need
 * vitest), so the bench can use it too.
 */
import { spawn } from 'node:child_process';
import { RUNTIME_V8_FLAGS } from '../../scripts/runtime-flags.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository, where `npm start` runs. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The app started as `npm start` starts it, in its own process. */
export interface AppProcess {
  url: string;
  /** The app's own process (scripts/start.mjs runs the bundle in-process). */
  pid: number;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Its exit code once it exited (null while it runs). */
  exitCode?(): number | null;
  /** Sends `signal` to the app and resolves with its exit code. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

const MODEL_AND_SERVICE_KEYS = [
  'OPENROUTER_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GROK_API_KEY',
  'CURSOR_API_KEY',
  'DISCORD_BOT_TOKEN',
  'NOTION_API_KEY',
  'DATABASE_URL',
  'WEB_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
];

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Where and how an app process runs; `environment` is set after the keys were removed (the bench points it at fakes). */
export interface AppProcessOptions {
  dataDir?: string;
  port?: number;
  environment?: Record<string, string>;
  /** Node's V8 flags (those of `npm start` by default). */
  v8Flags?: readonly string[];
}

/** This process's environment without any key, with `DATA_DIR` and `WEB_PORT` set, then `extra`. */
export function newcomerEnvironment(dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    WEB_PORT: String(port),
    WEB_HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
  };
  for (const key of MODEL_AND_SERVICE_KEYS) delete environment[key];
  return Object.assign(environment, extra);
}

/**
 * Spawns `node scripts/start.mjs` (what `npm start` runs) with no keys at all, a fresh DATA_DIR and a free
 * WEB_PORT: the first-run experience of a newcomer without a `.env`.
 */
export async function startAppProcess(options: AppProcessOptions = {}): Promise<AppProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'brainstorm-data-'));
  const port = options.port ?? (await freePort());
  const environment = newcomerEnvironment(dataDir, port, options.environment);
  // npm itself is left out: its own start-up is not the app's.
  const child = spawn(process.execPath, [...(options.v8Flags ?? RUNTIME_V8_FLAGS), 'scripts/start.mjs'], {
    cwd: REPOSITORY_ROOT,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the app process did not start');
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    dataDir,
    output: () => printed,
    exitCode: () => child.exitCode,
    async signal(signal) {
      child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null) {
        // Signal the whole process group this helper created (the app and anything it started).
        process.kill(-pid, 'SIGTERM');
        const forced = setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(forced);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How much of a process's output a failed wait shows: its last lines say where the start stood. */
const OUTPUT_SHOWN_CHARS = 4_000;

/**
 * Waits until `GET /healthz` answers 200 (the process is a separate program: there is no event to await,
 * so this polls until a deadline). Returns the milliseconds it took. Given the process rather than its address, a
 * wait that times out shows the end of what it printed.
 */
export async function waitForHealthy(target: string | Pick<AppProcess, 'url' | 'output' | 'exitCode'>, timeoutMs = 60_000, intervalMs = 25): Promise<number> {
  const url = typeof target === 'string' ? target : target.url;
  const started = performance.now();
  for (;;) {
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return performance.now() - started;
    // A process that exited (it could not listen, say) will not answer: say so now, not at the deadline.
    const exited = typeof target === 'string' ? null : (target.exitCode?.() ?? null);
    if (exited !== null && typeof target !== 'string')
      throw new Error(`${url}: the process exited (code ${exited}) before it answered; it printed, last:\n${target.output().slice(-OUTPUT_SHOWN_CHARS)}`);
    if (performance.now() - started > timeoutMs) {
      const printed = typeof target === 'string' ? '' : `; it printed, last:\n${target.output().slice(-OUTPUT_SHOWN_CHARS)}`;
      throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms${printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
