import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness, type DocumentationHarness } from './documentation-harness.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };

describe('documents through Notion outages and deletions', () => {
  let handle: DatabaseHandle;
  let clock: ManualClock;
  let notion: FakeNotion;
  let harness: DocumentationHarness;

  beforeEach(async () => {
    handle = await openAppTestDatabase();
    clock = new ManualClock();
    notion = await startFakeNotion({ clock });
    harness = createDocumentationHarness(handle, { notion, clock, notionRetryWindowMs: 6 * 3_600_000 });
  });
  afterEach(async () => {
    await notion.close();
    await handle.close();
  });

  /** A session whose record reached Notion; its first TLDR is due 15 s later. */
  async function sessionWithRecord(sessionId: string): Promise<void> {
    await harness.newSession(sessionId, 'Durable documents');
    await harness.say(sessionId, CLAUDE, 'Write every document through the outbox.');
    await harness.say(sessionId, GPT, 'And never give up on it after seconds.');
    await clock.advance(60_000);
    await harness.runDue();
    expect((await harness.documents.find(sessionId, 'record'))?.syncedVersion).toBe(1);
  }

  /** Moves the clock in steps, running due jobs, until `done` or `limitMs` passed; returns the time it took. */
  async function runUntil(done: () => Promise<boolean>, limitMs: number, stepMs = 15_000): Promise<number> {
    const started = clock.now().getTime();
    while (!(await done()) && clock.now().getTime() - started < limitMs) {
      await clock.advance(stepMs);
      await harness.runDue();
    }
    return clock.now().getTime() - started;
  }

  const pages = (title: string) => notion.store.findPagesByTitle(title).length;

  it('60 × 503: the TLDR and both pages are written once Notion answers; the room hears of the delay once and of its end once', async () => {
    await sessionWithRecord('ses_out');
    notion.failNext(60);
    await runUntil(async () => pages('TLDR') === 1 && harness.roomNotices.length >= 2, 3 * 3_600_000);
    expect(notion.requests.filter((request) => request.status === 503)).toHaveLength(60);
    expect(pages('Detailed record')).toBe(1);
    expect(pages('TLDR')).toBe(1);
    expect(harness.notices).toEqual([]);
    for (const kind of ['tldr', 'notion_sync', 'notion_session_row']) expect(await harness.jobs.countByStatus(kind)).not.toHaveProperty('failed');
    const told = harness.roomNotices.filter((notice) => notice.sessionId === 'ses_out').map((notice) => notice.text);
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(/delayed[\s\S]*Nothing is lost[\s\S]*6 hours/);
    expect(told[1]).toMatch(/written there now \(https:\/\/www\.notion\.so\//);
  });

  it('gives up only after the retry window, with a notice that names the job and what it means', async () => {
    await sessionWithRecord('ses_long');
    notion.startOutage(8 * 3_600_000);
    await runUntil(async () => harness.notices.length > 0, 7 * 3_600_000, 60_000);
    expect(clock.now().getTime()).toBeGreaterThan(new Date('2026-01-01T06:00:00Z').getTime());
    expect(harness.notices[0]?.title).toContain('tldr');
    expect(harness.notices[0]?.message).toMatch(/The TLDR was not refreshed/);
    expect(harness.notices[0]?.message).not.toMatch(/next write of the same document/);
  });

  it('recreates the row and both pages when a person trashes the session page, with backoff and no retry storm', async () => {
    await sessionWithRecord('ses_del');
    await runUntil(async () => pages('TLDR') === 1, 60_000);
    const row = notion.store.allRows()[0];
    notion.store.trashPage(String(row?.id));
    expect(pages('Detailed record')).toBe(0);
    await harness.say('ses_del', CLAUDE, 'A point after the page was deleted.');
    const before = notion.requests.length;
    await runUntil(async () => pages('Detailed record') === 1 && pages('TLDR') === 1, 10 * 60_000, 5_000);
    expect(notion.store.allRows()).toHaveLength(1);
    expect(pages('Detailed record')).toBe(1);
    expect(pages('TLDR')).toBe(1);
    expect(notion.requests.length - before).toBeLessThan(40);
    // The read below waits for the request limiter on the manual clock: let the last writes' second pass.
    await clock.advance(1_000);
    expect(await harness.service.readDocument('ses_del', 'record')).toContain('A point after the page was deleted.');
    expect(harness.notices).toEqual([]);
  });

  it('recreates a row deleted for good at once instead of retrying without backoff until it fails for good', async () => {
    await sessionWithRecord('ses_purged');
    notion.store.purgePage(String(notion.store.allRows()[0]?.id));
    await harness.say('ses_purged', GPT, 'Said after the row was deleted for good.');
    const before = notion.requests.length;
    for (let second = 0; second < 70; second += 1) {
      await clock.advance(1_000);
      await harness.runDue();
    }
    expect(notion.requests.length - before).toBeLessThan(25);
    expect(await harness.jobs.countByStatus('notion_sync')).not.toHaveProperty('failed');
    expect(notion.store.allRows()).toHaveLength(1);
    expect(await harness.service.readDocument('ses_purged', 'record')).toContain('Said after the row was deleted for good.');
  });

  it('backs off (never a storm) while a vanished object cannot be recreated yet', async () => {
    await sessionWithRecord('ses_gone');
    notion.store.purgePage(notion.parentPageId);
    notion.store.purgePage(String(notion.store.allRows()[0]?.id));
    await harness.say('ses_gone', GPT, 'The whole workspace page is gone now.');
    await clock.advance(60_000);
    await harness.runDue();
    const before = notion.requests.length;
    for (let second = 0; second < 60; second += 1) {
      await clock.advance(1_000);
      await harness.runDue();
    }
    expect(notion.requests.length - before).toBeLessThan(25);
    expect(await harness.jobs.countByStatus('notion_sync')).not.toHaveProperty('failed');
  });
});
