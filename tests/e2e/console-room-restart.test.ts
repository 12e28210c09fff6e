import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startAppProcess, waitForHealthy, type AppProcess } from '../support/browser.ts';

interface FeedItem {
  kind: 'message' | 'notice';
  message?: { speaker: { name: string }; text: string };
  actions?: string[];
  externalId?: string | null;
}

interface Feed {
  detail: { session: { status: string } };
  items: FeedItem[];
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

const getJson = async <Body>(url: string): Promise<Body> => (await (await fetch(url)).json()) as Body;

/** Asks the app (a separate program: there is no event to await) until `check` gives a value, or fails after 60 s. */
async function poll<Value>(check: () => Promise<Value | null>, what: string): Promise<Value> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

const planMessage = (feed: Feed) => feed.items.find((item) => item.kind === 'message' && item.message?.text.startsWith('**Proposed plan**'));

it('a restart keeps what the console showed in a local room: the plan keeps its Approve button and its link', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brainstorm-room-restart-'));
  const environment = { SESSION_PLANNER_MAX_QUESTIONS: '0' };
  let app: AppProcess | null = null;
  try {
    app = await startAppProcess({ dataDir, environment });
    await waitForHealthy(app);
    const started = await fetch(`${app.url}/api/local/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'Name our internal CLI tool', name: 'Sam' }),
    });
    const { roomId } = (await started.json()) as { roomId: string };
    const first = app;
    const sessionId = await poll(async () => (await getJson<{ sessionId: string | null }>(`${first.url}/api/rooms/${roomId}`)).sessionId, 'the session');
    const before = await poll(async () => {
      const feed = await getJson<Feed>(`${first.url}/api/sessions/${sessionId}/feed`);
      return planMessage(feed)?.actions?.includes('approve_plan') ? feed : null;
    }, 'the plan with its Approve button');
    expect(await app.signal('SIGTERM')).toBe(0);
    // Everything the app printed is a JSON log line (a library's console output goes through the logger too).
    const stray = app
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !isJson(line));
    expect(stray).toEqual([]);

    app = await startAppProcess({ dataDir, environment });
    await waitForHealthy(app);
    // The channel lists the room as it did, before anyone opened it in this process.
    expect(await getJson<{ roomId: string; title: string }[]>(`${app.url}/api/rooms`)).toEqual([
      expect.objectContaining({ roomId, title: 'Name our internal CLI tool' }),
    ]);
    const after = await getJson<Feed>(`${app.url}/api/sessions/${sessionId}/feed`);
    expect(after.detail.session.status).toBe('awaiting_approval');
    // Before the fix the room came back empty: the plan lost its button and every message its link into the room.
    expect(planMessage(after)).toMatchObject({ actions: ['approve_plan'], externalId: planMessage(before)?.externalId });
    expect(after.items.map((item) => item.externalId)).toEqual(before.items.map((item) => item.externalId));
    const room = await getJson<{ deliveries: unknown[] }>(`${app.url}/api/rooms/${roomId}`);
    expect(room.deliveries.length).toBeGreaterThan(0);
  } finally {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 150_000);
