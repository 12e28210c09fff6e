import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { Speaker } from '../../../src/core/domain.ts';
import { openAppTestDatabase } from '../../support/databases.ts';
import { createDocumentationHarness } from './documentation-harness.ts';

const ADA: Speaker = { kind: 'human', name: 'Ada' };
const CLAUDE: Speaker = { kind: 'participant', name: 'Claude' };

describe('Scribe scheduling', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openAppTestDatabase();
  });
  afterAll(async () => handle.close());

  /** When the session's pending job of `kind` is due (undefined: none is pending). */
  const pendingAt = async (kind: 'scribe' | 'tldr', sessionId: string) =>
    (
      await handle.db
        .selectFrom('jobs')
        .select('run_at')
        .where('kind', '=', kind)
        .where('dedupe_key', '=', sessionId)
        .where('status', '=', 'pending')
        .executeTakeFirst()
    )?.run_at;

  it('is a trailing debounce: each message moves the pass to the interval after it', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60 });
    await harness.newSession('ses_trail', 'Edge caching');
    await harness.say('ses_trail', ADA, 'How should we cache the API?');
    await clock.advance(40_000);
    await harness.say('ses_trail', CLAUDE, 'Cache at the edge with short TTLs.');
    await clock.advance(40_000);
    await harness.runDue();
    expect(await harness.documents.find('ses_trail', 'record')).toBeNull();
    await clock.advance(21_000);
    await harness.runDue();
    expect((await harness.documents.find('ses_trail', 'record'))?.content).toContain('short TTLs');
  });

  it('messages close together move the pass once, and a message after a pass ran (queued or urgent) queues the next', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60 });
    const pendingPassAt = () => pendingAt('scribe', 'ses_close');
    await harness.newSession('ses_close', 'Edge caching');
    const start = clock.now().getTime();
    await harness.say('ses_close', ADA, 'How should we cache the API?');
    // Within a tenth of the interval: the pass stays where the first message put it.
    await clock.advance(3_000);
    await harness.say('ses_close', CLAUDE, 'Cache at the edge with short TTLs.');
    expect(await pendingPassAt()).toEqual(new Date(start + 60_000));
    // Later than that, a message moves it again.
    await clock.advance(7_000);
    await harness.say('ses_close', ADA, 'And purge on deploy.');
    expect(await pendingPassAt()).toEqual(new Date(start + 70_000));
    await clock.advance(60_000);
    await harness.runDue();
    const record = (await harness.documents.find('ses_close', 'record'))?.content ?? '';
    expect(['How should we cache', 'short TTLs', 'purge on deploy'].every((text) => record.includes(text))).toBe(true);

    // Right after the pass ran, the next message queues a new one.
    await clock.advance(1_000);
    await harness.say('ses_close', CLAUDE, 'Version the cache keys.');
    expect(await pendingPassAt()).toEqual(new Date(start + 131_000));
    // An urgent pass runs the pending one now: a message a second later is not left without a pass.
    await harness.service.requestRecord('ses_close', { urgent: true });
    await clock.advance(1_000);
    await harness.say('ses_close', ADA, 'Log every purge.');
    expect(await pendingPassAt()).toEqual(new Date(start + 132_000));
    await clock.advance(60_000);
    await harness.runDue();
    expect((await harness.documents.find('ses_close', 'record'))?.content).toContain('Log every purge');
  });

  it('a shorter interval set while a pass is pending moves the pass in at the next message, however close', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60 });
    await harness.newSession('ses_shorter', 'Edge caching');
    const start = clock.now().getTime();
    await harness.say('ses_shorter', ADA, 'How should we cache the API?');
    // `!config SCRIBE_UPDATE_INTERVAL 5`, then a message in the same instant: its pass is due in 5 s, not in 60.
    harness.settings.scribeIntervalSeconds = 5;
    await harness.say('ses_shorter', CLAUDE, 'Cache at the edge with short TTLs.');
    expect(await pendingAt('scribe', 'ses_shorter')).toEqual(new Date(start + 5_000));
    await clock.advance(6_000);
    await harness.runDue();
    expect((await harness.documents.find('ses_shorter', 'record'))?.content).toContain('short TTLs');
  });

  it('a TLDR pending under a longer interval is moved in at the next Scribe pass once the interval is shortened', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60, tldrIntervalSeconds: 600 });
    const pendingTldrAt = () => pendingAt('tldr', 'ses_tldr');
    await harness.newSession('ses_tldr', 'Edge caching');
    await harness.say('ses_tldr', ADA, 'How should we cache the API?');
    await clock.advance(61_000);
    await harness.runDue();
    expect(await harness.documents.find('ses_tldr', 'tldr')).not.toBeNull();
    const firstTldrAt = clock.now().getTime();
    // A second Scribe pass queues the next TLDR ten minutes after the first.
    await harness.say('ses_tldr', CLAUDE, 'Cache at the edge with short TTLs.');
    await clock.advance(61_000);
    await harness.runDue();
    expect((await pendingTldrAt())?.getTime()).toBeGreaterThan(firstTldrAt + 500_000);
    // `!config TLDR_UPDATE_INTERVAL 5`: the next Scribe pass brings the pending TLDR in, and it runs.
    harness.settings.tldrIntervalSeconds = 5;
    await harness.say('ses_tldr', ADA, 'And purge on deploy.');
    await clock.advance(61_000);
    await harness.runDue();
    await clock.advance(1_000);
    await harness.runDue();
    expect(await pendingTldrAt()).toBeUndefined();
    expect((await harness.documents.find('ses_tldr', 'tldr'))?.version).toBe(2);
  });

  it('a debounce answered after an urgent pass started is not remembered: the next message still queues a pass', async () => {
    const clock = new ManualClock();
    let held: Promise<void> | null = null;
    let release: () => void = () => undefined;
    const harness = createDocumentationHarness(handle, {
      notion: null,
      clock,
      scribeIntervalSeconds: 60,
      wrapJobs: (jobs) => ({
        enqueue: (job, now) => jobs.enqueue(job, now),
        expedite: (...args) => jobs.expedite(...args),
        debounce: (kind, key, runAt, maxDelayMs, now) => jobs.debounce(kind, key, runAt, maxDelayMs, now),
        enqueueOrDebounce: async (job, maxDelayMs, now) => {
          const dueAt = await jobs.enqueueOrDebounce(job, maxDelayMs, now);
          if (held) await held;
          return dueAt;
        },
      }),
    });
    const pendingPasses = () =>
      handle.db.selectFrom('jobs').select('run_at').where('kind', '=', 'scribe').where('dedupe_key', '=', 'ses_race').where('status', '=', 'pending').execute();
    await harness.newSession('ses_race', 'Edge caching');
    await harness.say('ses_race', ADA, 'How should we cache the API?');
    await clock.advance(7_000);
    // A message's debounce is sent, and its answer held back while an urgent pass runs the pending pass.
    held = new Promise<void>((resolve) => (release = resolve));
    await harness.messages.insert(
      { sessionId: 'ses_race', speaker: CLAUDE, role: 'assistant', text: 'Cache at the edge.', deliveryStatus: 'delivered' },
      clock.now(),
    );
    const debounced = harness.service.onMessage('ses_race');
    await harness.service.requestRecord('ses_race', { urgent: true });
    expect(await pendingPasses()).toEqual([]);
    release();
    held = null;
    await debounced;
    // A second later: that answer named the pass that already ran, so this message queues a new one.
    await clock.advance(1_000);
    await harness.say('ses_race', ADA, 'And purge on deploy.');
    expect(await pendingPasses()).toHaveLength(1);
  });

  it('never waits longer than its bound while messages keep coming', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60 });
    await harness.newSession('ses_busy', 'Edge caching');
    for (let index = 0; index < 8; index += 1) {
      await harness.say('ses_busy', index % 2 ? CLAUDE : ADA, `Point number ${index}.`);
      await clock.advance(30_000);
      await harness.runDue();
    }
    expect(await harness.documents.find('ses_busy', 'record')).not.toBeNull();
  });

  it('an urgent pass has written the record when the request returns, also for callers asking at once', async () => {
    const clock = new ManualClock();
    const harness = createDocumentationHarness(handle, { notion: null, clock, scribeIntervalSeconds: 60 });
    await harness.newSession('ses_urgent', 'Edge caching');
    await harness.say('ses_urgent', ADA, 'We are near the context limit; record this.');
    await Promise.all([1, 2, 3].map(() => harness.service.requestRecord('ses_urgent', { urgent: true })));
    expect((await harness.documents.find('ses_urgent', 'record'))?.content).toContain('near the context limit');
    expect(harness.models.scribe.calls).toHaveLength(1);
  });
});
