/** The app under chaos: `npm start`'s own entry in a process group of its own, killed with SIGKILL and started again. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

/** One app process: its port, and how to kill it (SIGKILL, as a crash) or stop it (SIGTERM, as a deploy). */
export interface AppProcess {
  readonly url: string;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the app with `environment` on `port` and resolves once `/healthz` says it is ready; its output goes to `logFile`. */
export async function startAppProcess(environment: Record<string, string>, port: number, logFile: string): Promise<AppProcess> {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, ['--max-semi-space-size=4', '--heap-growing-percent=100', START], {
    env: { ...process.env, ...environment, WEB_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: a kill reaches every process the entry starts.
    detached: true,
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, name);
    await exited;
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await healthy(url))) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before it was ready: see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`the app was not ready within ${READY_TIMEOUT_MS / 1000} s: see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`);
    return response.ok && ((await response.json()) as { ok?: boolean }).ok === true;
  } catch {
    return false;
  }
}
