/**
 * What is created in Notion is created once, however many jobs and processes write at the same moment: the sessions
 * database, and a session's row (its row job and its record's sync both make sure of it). Found by
 * `npm run chaos:discord`: after an outage, two processes retrying four sessions' writes made three databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { NotionGateway, type NotionObjectStore } from '../../../src/notion/notion-gateway.ts';
import type { SessionRowValues } from '../../../src/notion/session-row.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';

const TOKEN = 'secret_concurrent_token';

/** One store of ids for every process, as the shared database is. */
function sharedObjects(): NotionObjectStore {
  const entries = new Map<string, string>();
  return {
    get: async (key) => entries.get(key) ?? null,
    set: async (key, value) => void entries.set(key, value),
    claim: async (key, value) => !entries.has(key) && (entries.set(key, value), true),
    remove: async (key) => void entries.delete(key),
  };
}

const row = (sessionId: string): SessionRowValues => ({
  topic: `Topic of ${sessionId}`,
  status: 'active',
  conversationId: sessionId,
  participants: ['Claude', 'GPT'],
  started: new Date('2026-03-01T10:00:00Z'),
  messages: 3,
  tokens: 100,
  costUsd: 0.001,
  threadUrl: null,
});

/**
 * Retries a write as the job worker does, a few seconds later, while another is creating what it needs. A failure
 * that is not retryable fails the test.
 */
async function asAJob(write: () => Promise<unknown>, clock: ManualClock): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      await write();
      return;
    } catch (error) {
      if (!(error instanceof Error && 'retryable' in error && error.retryable === true)) throw error;
      await clock.advance(2_000);
    }
  }
  throw new Error('still failing after 10 attempts');
}

describe('Notion objects written from several jobs and processes at once', () => {
  let clock: ManualClock;
  let fake: FakeNotion;
  let objects: NotionObjectStore;
  const live = new Set(['process-a', 'process-b']);
  const gateway = (id: string) =>
    new NotionGateway({
      auth: TOKEN,
      baseUrl: fake.url,
      clock,
      requestsPerSecond: 3,
      parentPageId: fake.parentPageId,
      objects,
      creator: { id, isAlive: async (other) => live.has(other) },
    });

  beforeEach(async () => {
    clock = new ManualClock('2026-03-01T10:00:00Z');
    fake = await startFakeNotion({ clock, tokens: [TOKEN], requestsPerSecond: 100 });
    objects = sharedObjects();
  });
  afterEach(async () => fake.close());

  it('make one sessions database and one row a session', async () => {
    const [first, second] = [gateway('process-a'), gateway('process-b')];
    const writes = ['ses_1', 'ses_2', 'ses_3', 'ses_4'].flatMap((sessionId) => [
      asAJob(() => first.upsertSessionRow(sessionId, row(sessionId)), clock),
      asAJob(() => second.writeDocument(sessionId, 'record', `# Record of ${sessionId}`, row(sessionId)), clock),
    ]);
    await settleWithClock(Promise.all(writes), clock);
    expect(fake.store.databaseCount).toBe(1);
    const conversations = fake.store.allRows().map((page) => JSON.stringify((page.properties as Record<string, unknown>)['Conversation ID']));
    expect(conversations).toHaveLength(4);
    expect(new Set(conversations).size).toBe(4);
    expect(fake.store.findPagesByTitle('Detailed record')).toHaveLength(4);
  });

  it('wait for a live process that is creating the same object, and take over at once from a dead one', async () => {
    await settleWithClock(gateway('process-b').ensureDatabase(), clock);
    // Process C creates the row; Notion makes it; C dies before it stores the row's id.
    const dying = new NotionGateway({
      auth: TOKEN,
      baseUrl: fake.url,
      clock,
      requestsPerSecond: 3,
      parentPageId: fake.parentPageId,
      objects: { ...objects, set: async (key, value) => (key === 'session:ses_9:row' ? Promise.reject(new Error('killed')) : objects.set(key, value)) },
      creator: { id: 'process-c', isAlive: async (other) => live.has(other) },
    });
    live.add('process-c');
    await expect(settleWithClock(dying.upsertSessionRow('ses_9', row('ses_9')), clock)).rejects.toThrow('killed');
    const survivor = gateway('process-b');
    // While C still heartbeats, its create may be under way: come back shortly.
    await expect(settleWithClock(survivor.upsertSessionRow('ses_9', row('ses_9')), clock)).rejects.toMatchObject({ retryable: true });
    live.delete('process-c');
    await settleWithClock(survivor.upsertSessionRow('ses_9', row('ses_9')), clock);
    expect(fake.store.allRows()).toHaveLength(1);
  });
});
