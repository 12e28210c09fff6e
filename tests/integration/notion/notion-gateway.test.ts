import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotionGateway, type NotionObjectStore } from '../../../src/notion/notion-gateway.ts';
import { NotionRequestError } from '../../../src/notion/notion-errors.ts';
import type { SessionRowValues } from '../../../src/notion/session-row.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { settleWithClock } from '../../support/settle-with-clock.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';

const TOKEN = 'secret_gateway_token';

function memoryObjects(): NotionObjectStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (key) => entries.get(key) ?? null,
    set: async (key, value) => void entries.set(key, value),
    remove: async (key) => void entries.delete(key),
    claim: async (key, value) => !entries.has(key) && (entries.set(key, value), true),
  };
}

const ROW: SessionRowValues = {
  topic: 'Edge caching for the API',
  status: 'active',
  conversationId: 'ses_1',
  participants: ['Claude', 'GPT', 'Grok'],
  started: new Date('2026-01-01T00:00:00Z'),
  messages: 12,
  tokens: 3400,
  costUsd: 0.0123,
  threadUrl: 'https://discord.com/channels/1/2',
};

function longRecord(): string {
  const lines = ['# Detailed record', ''];
  for (let index = 0; index < 160; index += 1) {
    lines.push(`## Point ${index}`, `- Claude argued item ${index}`, `  - with a nested detail ${index}`);
  }
  lines.push('A very long paragraph: ' + 'lorem ipsum '.repeat(400), '```ts', 'const cache = new Map();', '```');
  return lines.join('\n');
}

describe('NotionGateway against the fake', () => {
  let clock: ManualClock;
  let fake: FakeNotion;
  let objects: ReturnType<typeof memoryObjects>;
  let gateway: NotionGateway;

  beforeEach(async () => {
    clock = new ManualClock();
    fake = await startFakeNotion({ clock, tokens: [TOKEN] });
    objects = memoryObjects();
    gateway = new NotionGateway({ auth: TOKEN, baseUrl: fake.url, clock, requestsPerSecond: 3, parentPageId: fake.parentPageId, objects });
  });
  afterEach(async () => fake.close());

  it('creates the database once, a row with every property, and both documents as child pages (markdown path)', async () => {
    await settleWithClock(gateway.writeDocument('ses_1', 'record', '# Record\n- Claude: cache at the edge', ROW), clock);
    await settleWithClock(gateway.writeDocument('ses_1', 'tldr', '## Summary\nshort', ROW), clock);
    await settleWithClock(gateway.writeDocument('ses_1', 'record', '# Record\n- Claude: cache at the edge\n- GPT: invalidate by tag', ROW), clock);
    expect(fake.store.databaseCount).toBe(1);
    const rows = fake.store.allRows();
    expect(rows).toHaveLength(1);
    const properties = rows[0]?.properties as Record<string, Record<string, unknown>>;
    expect((properties.Messages as { number: number }).number).toBe(12);
    expect((properties.Status as { select: { name: string } }).select.name).toBe('active');
    expect((properties.Participants as { multi_select: { name: string }[] }).multi_select.map((option) => option.name)).toEqual(['Claude', 'GPT', 'Grok']);
    expect((properties['Thread URL'] as { url: string }).url).toBe(ROW.threadUrl);
    expect(fake.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    expect(await settleWithClock(gateway.readDocument('ses_1', 'record'), clock)).toBe('# Record\n- Claude: cache at the edge\n- GPT: invalidate by tag');
    expect(fake.requests.filter((request) => request.path.endsWith('/markdown')).length).toBeGreaterThan(0);

    await clock.advance(1000);
    const again = new NotionGateway({ auth: TOKEN, baseUrl: fake.url, clock, requestsPerSecond: 3, parentPageId: fake.parentPageId, objects: memoryObjects() });
    await settleWithClock(again.ensureDatabase(), clock);
    expect(fake.store.databaseCount).toBe(1);
  });

  it('falls back to blocks when markdown is refused, within every limit, and reads the record back', async () => {
    fake.refuseMarkdown = true;
    const record = longRecord();
    await settleWithClock(gateway.writeDocument('ses_2', 'record', record, ROW), clock);
    await settleWithClock(gateway.writeDocument('ses_2', 'record', record + '\n- GPT: one more point', ROW), clock);
    expect(gateway.usesMarkdown).toBe(false);
    expect(fake.violations).toBe(0);
    expect(fake.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
    const appends = fake.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith('/children') && request.status === 200);
    expect(appends.length).toBeGreaterThanOrEqual(4);
    const read = await settleWithClock(gateway.readDocument('ses_2', 'record'), clock);
    expect(read).toContain('- Claude argued item 159');
    expect(read).toContain('  - with a nested detail 42');
    expect(read).toContain('- GPT: one more point');
    expect(read?.replace(/\s+/g, ' ')).toContain('lorem ipsum '.repeat(400).trim());
  });

  it('never draws a 429 from bursts of writes under the shared 3 req/s limit', async () => {
    for (let index = 0; index < 8; index += 1) {
      await settleWithClock(gateway.writeDocument(`ses_${index}`, 'record', `# Record ${index}`, { ...ROW, conversationId: `ses_${index}` }), clock);
    }
    // one lookup and one create for the database, then a row and a page per session
    expect(fake.requests.length).toBe(2 + 8 * 2);
    expect(fake.rateLimited).toBe(0);
  });

  it('adopts a configured database id (schema read from its data source) without creating another', async () => {
    await settleWithClock(gateway.ensureDatabase(), clock);
    await clock.advance(1000);
    const configured = new NotionGateway({
      auth: TOKEN,
      baseUrl: fake.url,
      clock,
      requestsPerSecond: 3,
      databaseId: [...objects.entries.values()].map((value) => JSON.parse(value) as { databaseId: string })[0]?.databaseId ?? '',
      objects: memoryObjects(),
    });
    await settleWithClock(configured.upsertSessionRow('ses_9', ROW), clock);
    expect(fake.store.databaseCount).toBe(1);
    expect(fake.store.allRows()).toHaveLength(1);
  });

  it('classifies an outage as retryable and a bad token as unauthorized', async () => {
    fake.startOutage(60_000);
    const outage = await settleWithClock(gateway.ensureDatabase(), clock).catch((error: unknown) => error);
    expect(outage).toBeInstanceOf(NotionRequestError);
    expect((outage as NotionRequestError).retryable).toBe(true);
    fake.endOutage();
    const wrong = new NotionGateway({
      auth: 'nope',
      baseUrl: fake.url,
      clock,
      requestsPerSecond: 3,
      parentPageId: fake.parentPageId,
      objects: memoryObjects(),
    });
    const denied = await settleWithClock(wrong.ensureDatabase(), clock).catch((error: unknown) => error);
    expect((denied as NotionRequestError).kind).toBe('unauthorized');
  });
});
