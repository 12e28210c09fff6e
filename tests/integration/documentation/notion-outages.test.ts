import { describe, expect, it } from 'vitest';
import type { Speaker } from '../../../src/core/domain.ts';
import { notionSuitePerTest } from './notion-suite.ts';

const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };
const GPT: Speaker = { kind: 'participant', name: 'GPT' };

describe('documents through Notion outages and deletions', () => {
  const suite = notionSuitePerTest({ notionRetryWindowMs: 6 * 3_600_000 });

  /** A session whose record reached Notion; its first TLDR is due 15 s later. */
  async function sessionWithRecord(sessionId: string): Promise<void> {
    await suite.harness.newSession(sessionId, 'Durable documents');
    await suite.harness.say(sessionId, CLAUDE, 'Write every document through the outbox.');
    await suite.harness.say(sessionId, GPT, 'And never give up on it after seconds.');
    await suite.clock.advance(60_000);
    await suite.harness.runDue();
    expect((await suite.harness.documents.find(sessionId, 'record'))?.syncedVersion).toBe(1);
  }

  /** Moves the clock in steps, running due jobs, until `done` or `limitMs` passed; returns the time it took. */
  async function runUntil(done: () => Promise<boolean>, limitMs: number, stepMs = 15_000): Promise<number> {
    const started = suite.clock.now().getTime();
    while (!(await done()) && suite.clock.now().getTime() - started < limitMs) {
      await suite.clock.advance(stepMs);
      await suite.harness.runDue();
    }
    return suite.clock.now().getTime() - started;
  }

  const pages = (title: string) => suite.notion.store.findPagesByTitle(title).length;

  it('60 × 503: the TLDR and both pages are written once Notion answers; the room hears of the delay once and of its end once', async () => {
    await sessionWithRecord('ses_out');
    suite.notion.failNext(60);
    await runUntil(async () => pages('TLDR') === 1 && suite.harness.roomNotices.length >= 2, 3 * 3_600_000);
    expect(suite.notion.requests.filter((request) => request.status === 503)).toHaveLength(60);
    expect(pages('Detailed record')).toBe(1);
    expect(pages('TLDR')).toBe(1);
    expect(suite.harness.notices).toEqual([]);
    for (const kind of ['tldr', 'notion_sync', 'notion_session_row']) expect(await suite.harness.jobs.countByStatus(kind)).not.toHaveProperty('failed');
    const told = suite.harness.roomNotices.filter((notice) => notice.sessionId === 'ses_out').map((notice) => notice.text);
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(/delayed[\s\S]*Nothing is lost[\s\S]*6 hours/);
    expect(told[1]).toMatch(/written there now \(https:\/\/www\.notion\.so\//);
  });

  it('gives up only after the retry window, with a notice that names the job and what it means', async () => {
    await sessionWithRecord('ses_long');
    suite.notion.startOutage(8 * 3_600_000);
    await runUntil(async () => suite.harness.notices.length > 0, 7 * 3_600_000, 60_000);
    expect(suite.clock.now().getTime()).toBeGreaterThan(new Date('2026-01-01T06:00:00Z').getTime());
    expect(suite.harness.notices[0]?.title).toContain('tldr');
    expect(suite.harness.notices[0]?.message).toMatch(/The TLDR was not refreshed/);
    expect(suite.harness.notices[0]?.message).not.toMatch(/next write of the same document/);
  });

  it('recreates the row and both pages when a person trashes the session page, with backoff and no retry storm', async () => {
    await sessionWithRecord('ses_del');
    await runUntil(async () => pages('TLDR') === 1, 60_000);
    const row = suite.notion.store.allRows()[0];
    suite.notion.store.trashPage(String(row?.id));
    expect(pages('Detailed record')).toBe(0);
    await suite.harness.say('ses_del', CLAUDE, 'A point after the page was deleted.');
    const before = suite.notion.requests.length;
    await runUntil(async () => pages('Detailed record') === 1 && pages('TLDR') === 1, 10 * 60_000, 5_000);
    expect(suite.notion.store.allRows()).toHaveLength(1);
    expect(pages('Detailed record')).toBe(1);
    expect(pages('TLDR')).toBe(1);
    expect(suite.notion.requests.length - before).toBeLessThan(40);
    // The read below waits for the request limiter on the manual clock: let the last writes' second pass.
    await suite.clock.advance(1_000);
    expect(await suite.harness.service.readDocument('ses_del', 'record')).toContain('A point after the page was deleted.');
    expect(suite.harness.notices).toEqual([]);
  });

  it('recreates a row deleted for good at once instead of retrying without backoff until it fails for good', async () => {
    await sessionWithRecord('ses_purged');
    suite.notion.store.purgePage(String(suite.notion.store.allRows()[0]?.id));
    await suite.harness.say('ses_purged', GPT, 'Said after the row was deleted for good.');
    const before = suite.notion.requests.length;
    for (let second = 0; second < 70; second += 1) {
      await suite.clock.advance(1_000);
      await suite.harness.runDue();
    }
    expect(suite.notion.requests.length - before).toBeLessThan(25);
    expect(await suite.harness.jobs.countByStatus('notion_sync')).not.toHaveProperty('failed');
    expect(suite.notion.store.allRows()).toHaveLength(1);
    expect(await suite.harness.service.readDocument('ses_purged', 'record')).toContain('Said after the row was deleted for good.');
  });

  it('backs off (never a storm) while a vanished object cannot be recreated yet', async () => {
    await sessionWithRecord('ses_gone');
    suite.notion.store.purgePage(suite.notion.parentPageId);
    suite.notion.store.purgePage(String(suite.notion.store.allRows()[0]?.id));
    await suite.harness.say('ses_gone', GPT, 'The whole workspace page is gone now.');
    await suite.clock.advance(60_000);
    await suite.harness.runDue();
    const before = suite.notion.requests.length;
    for (let second = 0; second < 60; second += 1) {
      await suite.clock.advance(1_000);
      await suite.harness.runDue();
    }
    expect(suite.notion.requests.length - before).toBeLessThan(25);
    expect(await suite.harness.jobs.countByStatus('notion_sync')).not.toHaveProperty('failed');
  });
});
