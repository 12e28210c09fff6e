import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startAppProcess, waitForHealthy } from '../support/browser.ts';

const sessions = async (url: string) => (await (await fetch(`${url}/api/sessions`)).json()) as { topic: string; status: string }[];

it('npm start with no .env starts on the defaults, stops cleanly on SIGTERM and SIGINT, and keeps what it committed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-lifecycle-'));
  try {
    const first = await startAppProcess({ dataDir });
    await waitForHealthy(first);
    expect(first.output()).toMatch(/default chosen — storage: embedded PGlite/);
    expect(first.output()).toMatch(/default chosen — models: SIMULATED/);
    const started = await fetch(`${first.url}/api/local/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'Does a restart keep this?', name: 'Sam' }),
    });
    expect(started.status).toBe(200);
    expect((await sessions(first.url)).map((session) => session.topic)).toContain('Does a restart keep this?');
    expect(await first.signal('SIGTERM')).toBe(0);
    expect(first.output()).toMatch(/stopped cleanly/);

    const second = await startAppProcess({ dataDir });
    await waitForHealthy(second);
    expect((await sessions(second.url)).map((session) => session.topic)).toContain('Does a restart keep this?');
    expect(await second.signal('SIGINT')).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

it('a SIGTERM while it is still starting lets the start finish, then stops cleanly and leaves a data directory that starts again', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'brainstorm-early-stop-'));
  const dataDir = join(parent, 'data');
  try {
    const first = await startAppProcess({ dataDir });
    // The first line the app logs: the signal handlers are in place, the data directory is still being made.
    await expect.poll(() => first.output(), { timeout: 60_000, interval: 20 }).toMatch(/default chosen/);
    expect(first.output()).not.toMatch(/Brainstorm is ready/);
    expect(await first.signal('SIGTERM')).toBe(0);
    expect(first.output()).toMatch(/stop asked while starting/);
    expect(first.output()).toMatch(/stopped cleanly/);
    // No half-made copy of the embedded database is left beside the data directory.
    expect(readdirSync(parent)).toEqual(['data']);
    const second = await startAppProcess({ dataDir });
    await waitForHealthy(second);
    expect(await sessions(second.url)).toEqual([]);
    expect(await second.signal('SIGTERM')).toBe(0);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}, 120_000);
