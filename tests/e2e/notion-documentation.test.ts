/**
 * Issue 5 end to end at the documentation boundary: a 60-message session through the real job worker, a real
 * database, the real `@notionhq/client` against the fake Notion, with a 5-minute outage on the simulated clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingsOf } from '../../src/agents/tldr/tldr-text.ts';
import type { DatabaseHandle } from '../../src/db/create-database.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { Speaker } from '../../src/core/domain.ts';
import { startFakeNotion, type FakeNotion } from '../fakes/notion/fake-notion.ts';
import { createDocumentationHarness } from '../integration/documentation/documentation-harness.ts';
import { openAppTestDatabase } from '../support/databases.ts';

const SPEAKERS: Speaker[] = [
  { kind: 'human', name: 'Ada' },
  { kind: 'participant', name: 'Claude' },
  { kind: 'participant', name: 'GPT' },
  { kind: 'participant', name: 'Grok' },
];

type Properties = Record<
  string,
  {
    title?: { plain_text: string }[];
    rich_text?: { plain_text: string }[];
    select?: { name: string };
    multi_select?: { name: string }[];
    number?: number;
    url?: string;
    date?: { start: string };
  }
>;

describe('Notion documentation of a 60-message session', () => {
  let handle: DatabaseHandle;
  let fake: FakeNotion;
  const clock = new ManualClock('2026-03-01T10:00:00Z');

  beforeAll(async () => {
    handle = await openAppTestDatabase();
    fake = await startFakeNotion({ clock });
  });
  afterAll(async () => {
    await fake.close();
    await handle.close();
  });

  it('documents everything, survives a 5-minute outage, and never breaks a Notion limit', async () => {
    const harness = createDocumentationHarness(handle, { notion: fake, clock, scribeIntervalSeconds: 60, tldrIntervalSeconds: 600 });
    await harness.newSession('ses_e2e', 'Caching strategy for the public API');
    await harness.runDue();
    for (let index = 0; index < 60; index += 1) {
      const speaker = SPEAKERS[index % SPEAKERS.length] as Speaker;
      if (index === 20) fake.startOutage(5 * 60_000);
      await harness.say(
        'ses_e2e',
        speaker,
        `${speaker.name} point ${index}: ${speaker.name === 'Ada' ? 'what about stale reads?' : `consider option ${index} for invalidation`}`,
      );
      await clock.advance(10_000);
      await harness.runDue();
    }
    await harness.sessions.update('ses_e2e', { status: 'completed', endedAt: clock.now() }, clock.now());
    await harness.service.onSessionChanged('ses_e2e');
    await harness.service.requestRecord('ses_e2e', { urgent: true });
    for (let step = 0; step < 80; step += 1) {
      await clock.advance(15_000);
      await harness.runDue();
    }

    const outageErrors = fake.requests.filter((request) => request.status === 503);
    expect(outageErrors.length).toBeGreaterThan(0);
    expect(fake.violations).toBe(0);
    expect(fake.rateLimited).toBe(0);
    expect(harness.notices).toEqual([]);
    expect(await harness.jobs.countByStatus()).not.toHaveProperty('failed');

    const rows = fake.store.allRows();
    expect(rows).toHaveLength(1);
    const properties = rows[0]?.properties as Properties;
    expect(properties.Topic?.title?.[0]?.plain_text).toBe('Caching strategy for the public API');
    expect(properties.Status?.select?.name).toBe('completed');
    expect(properties['Conversation ID']?.rich_text?.[0]?.plain_text).toBe('ses_e2e');
    expect(properties.Participants?.multi_select?.map((option) => option.name)).toEqual(['Ada', 'Claude', 'GPT', 'Grok']);
    expect(properties.Messages?.number).toBe(60);
    expect(properties['Thread URL']?.url).toBe('https://discord.test/ses_e2e');
    expect(properties.Started?.date?.start).toBe('2026-03-01T10:00:00.000Z');

    const local = await harness.documents.find('ses_e2e', 'record');
    expect(local?.syncedVersion).toBe(local?.version);
    const record = await harness.service.readDocument('ses_e2e', 'record');
    expect(record?.trim()).toBe(local?.content.trim());
    for (const speaker of SPEAKERS) expect(record).toMatch(new RegExp(`${speaker.name}( \\(person\\))? said \\(#\\d+\\)`));
    for (let index = 0; index < 60; index += 1) expect(record).toContain(`point ${index}:`);

    const tldr = await harness.service.readDocument('ses_e2e', 'tldr');
    const findings = findingsOf(tldr ?? '');
    expect(findings.length).toBeGreaterThanOrEqual(3);
    expect(findings.length).toBeLessThanOrEqual(5);
    for (const finding of findings) expect(finding).toMatch(/sources: /);
    expect(fake.store.findPagesByTitle('Detailed record')).toHaveLength(1);
    expect(fake.store.findPagesByTitle('TLDR')).toHaveLength(1);
  });
});
