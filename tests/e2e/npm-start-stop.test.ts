import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freePort, newcomerEnvironment, REPOSITORY_ROOT, waitForHealthy } from '../support/app-process.ts';
import { waitUntil } from '../support/app-cluster.ts';

/** Whether anything answers at `url` (a stopped app's port refuses). */
async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`).then(
    () => true,
    () => false,
  );
}

it('stops cleanly when a supervisor sends npm start a SIGTERM, though npm’s shell does not pass it on', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-npm-start-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The real npm, as a newcomer and a container's command run it: npm, then `sh -c`, then the app.
  const npm = spawn('npm', ['start'], { cwd: REPOSITORY_ROOT, env: newcomerEnvironment(dataDir, port), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let printed = '';
  npm.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  npm.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const group = npm.pid;
  if (group === undefined) throw new Error('npm did not start');
  try {
    await waitForHealthy(url, 120_000);
    // Only npm is signalled, as `docker stop` signals a container's first process.
    process.kill(group, 'SIGTERM');
    await waitUntil(async () => !(await answers(url)), 'the app to stop', 30_000).catch((error: unknown) => {
      console.log(printed.slice(-3000));
      throw error;
    });
    expect(printed).toMatch(/"signal":"parent_exited".*"msg":"stopping"/);
  } finally {
    // Whatever is left of the process group (the app, when it did not stop).
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Nothing left.
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
