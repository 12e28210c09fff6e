import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findingsOf } from '../../../src/agents/tldr/tldr-text.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { createDocumentationHarness, scriptedModels } from './documentation-harness.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };
const ADA: Speaker = { kind: 'human', name: 'Ada' };

describe('documentation service', () => {
  let handle: DatabaseHandle;
  let fake: FakeNotion | null = null;

  beforeAll(async () => {
    handle = await openAppTestDatabase();
  });
  afterAll(async () => handle.close());
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  async function withNotion(clock: ManualClock): Promise<FakeNotion> {
    fake = await startFakeNotion({ clock });
    return fake;
  }

  it('debounces the Scribe, writes the record to the mirror and Notion, then the TLDR read back from Notion', async () => {
    const clock = new ManualClock();
    const notion = await withNotion(clock);
    const harness = createDocumentationHarness(handle, { notion, clock });
    await harness.newSession('ses_a', 'Edge caching');
    await harness.say('ses_a', ADA, 'How should we cache the API?');
    await harness.say('ses_a', CLAUDE, 'Cache at the edge with short TTLs.');
    await harness.say('ses_a', GPT, 'Invalidate by surrogate keys instead.');
    await harness.runDue();
    expect(harness.models.scribe.calls).toHaveLength(0);
    expect(await harness.documents.find('ses_a', 'record')).toBeNull();

    await clock.advance(60_000);
    await harness.runDue();
    expect(harness.models.scribe.calls).toHaveLength(1);
    // the TLDR waits until the record reached Notion, then reads it back from there
    await clock.advance(15_000);
    await harness.runDue();
    const record = await harness.service.latestRecord('ses_a');
    for (const name of ['Ada', 'Claude', 'GPT']) expect(record).toContain(name);
    expect(readFileSync(`${harness.dataDir}/docs/ses_a/record.md`, 'utf8')).toBe(record);
    const recordPage = notion.store.findPagesByTitle('Detailed record')[0];
    expect(recordPage).toBeDefined();
    expect(notion.requests.some((request) => request.method === 'GET' && request.path.endsWith('/markdown'))).toBe(true);

    const tldr = await harness.service.latestTldr('ses_a');
    const findings = findingsOf(tldr ?? '');
    expect(findings.length).toBeGreaterThanOrEqual(3);
    expect(findings.length).toBeLessThanOrEqual(5);
    expect(findings[0]).toMatch(/#\d+/);
    expect(notion.store.findPagesByTitle('TLDR')).toHaveLength(1);
    const row = notion.store.allRows()[0]?.properties as Record<string, { number?: number; multi_select?: { name: string }[] }>;
    expect(row.Messages?.number).toBe(3);
    expect(row.Participants?.multi_select?.map((option) => option.name)).toEqual(['Ada', 'Claude', 'GPT']);

    await harness.service.requestRecord('ses_a', { urgent: true });
    await harness.runDue();
    expect(harness.models.scribe.calls).toHaveLength(1);
    expect(notion.violations).toBe(0);
    expect(notion.rateLimited).toBe(0);
  });

  it('writes a statistics record when the Scribe model fails', async () => {
    const harness = createDocumentationHarness(handle, { notion: null, models: scriptedModels({ scribeFailures: 1 }) });
    await harness.newSession('ses_b', 'Fallbacks');
    await harness.say('ses_b', CLAUDE, 'First idea.');
    await harness.say('ses_b', GPT, 'Second idea.');
    await harness.service.requestRecord('ses_b', { urgent: true });
    await harness.runDue();
    const record = await harness.service.latestRecord('ses_b');
    expect(record).toContain('statistics only');
    expect(record).toContain('- Claude: 1 message');
    expect(record).toContain('- Messages: 2');
    expect(record).toMatch(/#\d+ \[GPT\]: Second idea\./);
  });

  it('loses nothing in a 5-minute Notion outage and catches up with the newest version', async () => {
    const clock = new ManualClock();
    const notion = await withNotion(clock);
    const harness = createDocumentationHarness(handle, { notion, clock });
    await harness.newSession('ses_c', 'Outages');
    await harness.runDue();
    notion.startOutage(5 * 60_000);
    await harness.say('ses_c', CLAUDE, 'Point one during the outage.');
    await clock.advance(60_000);
    await harness.runDue();
    await harness.say('ses_c', GPT, 'Point two during the outage.');
    for (let elapsed = 0; elapsed < 6 * 60_000; elapsed += 5_000) {
      await clock.advance(5_000);
      await harness.runDue();
    }
    expect(notion.requests.filter((request) => request.status === 503).length).toBeGreaterThan(3);
    const local = await harness.documents.find('ses_c', 'record');
    expect(local?.syncedVersion).toBe(local?.version);
    const page = notion.store.findPagesByTitle('Detailed record').find((candidate) => (candidate.parent as { page_id?: string }).page_id);
    expect(page).toBeDefined();
    const remote = await harness.service.readDocument('ses_c', 'record');
    expect(remote).toContain('Point one during the outage.');
    expect(remote).toContain('Point two during the outage.');
    expect(harness.notices).toHaveLength(0);
    expect(await harness.jobs.countByStatus('notion_sync')).not.toHaveProperty('failed');
  });

  it('sends an admin notice when a Notion job fails for good (bad token)', async () => {
    const clock = new ManualClock();
    const notion = await withNotion(clock);
    const harness = createDocumentationHarness(handle, { notion, clock, token: 'secret_wrong' });
    await harness.newSession('ses_d', 'Bad token');
    await harness.runDue();
    expect(harness.notices).toHaveLength(1);
    expect(harness.notices[0]?.title).toContain('notion_session_row');
    expect(harness.notices[0]?.message).not.toContain('secret_wrong');
  });

  it('keeps the mirror as the store without Notion, and skips the TLDR while no record exists', async () => {
    const harness = createDocumentationHarness(handle, { notion: null });
    await harness.newSession('ses_e', 'Mirror only');
    await harness.jobs.enqueue({ kind: 'tldr', payload: { sessionId: 'ses_e' }, runAt: harness.clock.now() }, harness.clock.now());
    await harness.runDue();
    expect(harness.models.tldr.calls).toHaveLength(0);
    await harness.service.writeDocument('ses_e', 'record', '# Record\n- Claude said (#1): mirrored');
    expect(existsSync(`${harness.dataDir}/docs/ses_e/record.md`)).toBe(true);
    expect(await harness.service.readDocument('ses_e', 'record')).toContain('mirrored');
    expect(await harness.service.refreshRecord('ses_e')).toContain('mirrored');
  });

  it('a person’s tick and a record the Scribe writes at the same moment both land: one writer of the record at a time', async () => {
    const harness = createDocumentationHarness(handle, { notion: null });
    await harness.newSession('ses_t', 'Ticks');
    await harness.service.writeDocument('ses_t', 'record', '# Record\n## Next steps\n- [ ] Book the venue (#3)');
    const rewritten = '# Record\n- #4 [Ada (person)]: new point\n## Next steps\n- [ ] Book the venue (#3)\n- [ ] Ask for dates (#4)';
    const tick = (record: string) => record.replace('- [ ] Book', '- [x] Book');
    // Either order: the Scribe's words and the person's tick are both in the newest record.
    await Promise.all([harness.service.writeDocument('ses_t', 'record', rewritten), harness.service.editPeoplesRecord('ses_t', tick)]);
    expect(await harness.service.latestRecord('ses_t')).toBe(tick(rewritten));
    await Promise.all([
      harness.service.editPeoplesRecord('ses_t', (record) => record.replace('- [ ] Ask', '- [x] Ask')),
      harness.service.writeDocument('ses_t', 'record', rewritten),
    ]);
    expect(await harness.service.latestRecord('ses_t')).toBe(tick(rewritten).replace('- [ ] Ask', '- [x] Ask'));
    expect(await harness.service.editPeoplesRecord('ses_none', tick)).toBe(false);
    expect(await harness.service.editPeoplesRecord('ses_t', () => null)).toBe(false);
  });

  it('recalls past sessions on similar topics from their summaries', async () => {
    const harness = createDocumentationHarness(handle, { notion: null });
    await harness.newSession('ses_f', 'Caching strategies for a REST API');
    await harness.newSession('ses_g', 'Hiring plan for the design team');
    await harness.service.writeDocument('ses_f', 'tldr', 'We compared edge caching, TTLs and cache invalidation.');
    await harness.service.writeDocument('ses_g', 'tldr', 'We discussed interviews and portfolios for designers.');
    const recalled = await harness.service.recallSessions('cache invalidation for our API', 2);
    expect(recalled[0]?.sessionId).toBe('ses_f');
    expect(recalled[0]?.topic).toBe('Caching strategies for a REST API');
    const excluded = await harness.service.toolPorts('ses_f').recallSessions('cache invalidation for our API', 2);
    expect(excluded.map((session) => session.sessionId)).not.toContain('ses_f');
  });
});
