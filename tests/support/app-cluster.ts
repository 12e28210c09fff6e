/** Several app processes on one Postgres (`node --import tsx src/index.ts`, as `npm start`), for scale-out tests and the bench. */
import { spawn } from 'node:child_process';
import { RUNTIME_V8_FLAGS } from '../../scripts/runtime-flags.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPOSITORY_ROOT } from './browser.ts';

/** One app process of a cluster. */
export interface ClusterProcess {
  url: string;
  pid: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by the signal). */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  /** Stops the process (SIGTERM, SIGKILL after 10 s) if it still runs, and removes its DATA_DIR. */
  stop(): Promise<void>;
}

/** Variables a cluster process must not inherit from the machine running the tests. */
const INHERITED_KEYS = [
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

/** The environment of a cluster member: the fake OpenRouter, a shared Postgres, short leases, and `extra`. */
export function clusterEnvironment(openRouterUrl: string, databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    OPENROUTER_API_KEY: 'test-openrouter-key',
    OPENROUTER_BASE_URL: openRouterUrl,
    SESSION_PLANNER_MAX_QUESTIONS: '0',
    MAX_AI_ROUNDS_WITHOUT_HUMAN: '1',
    SESSION_LEASE_SECONDS: '3',
    SCRIBE_UPDATE_INTERVAL: '600',
    TLDR_UPDATE_INTERVAL: '3600',
    ...extra,
  };
}

/** Spawns one app process with `environment` on a free port and its own DATA_DIR. */
export async function startClusterProcess(environment: Record<string, string>): Promise<ClusterProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-cluster-'));
  const port = await freePort();
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const key of INHERITED_KEYS) delete merged[key];
  Object.assign(merged, { NODE_ENV: 'development', LOG_LEVEL: 'info', DATA_DIR: dataDir, WEB_PORT: String(port), WEB_HOST: '127.0.0.1' }, environment);
  const child = spawn(process.execPath, [...RUNTIME_V8_FLAGS, '--import', 'tsx', 'src/index.ts'], {
    cwd: REPOSITORY_ROOT,
    env: merged,
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
    output: () => printed,
    async signal(signal) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-pid, signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-pid, 'SIGTERM');
        const forced = setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(forced);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON to a process and returns the parsed answer (throws on a status other than 200). */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Polls until `condition` holds (separate programs: there is no event to await), or throws after `timeoutMs`.
 * Returns the milliseconds it took.
 */
export async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000, intervalMs = 100): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await condition().catch(() => false)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
