/**
 * Requests at the limit draw no 429 from Notion, through the real @notionhq/client against the fake (which counts a
 * request when it arrives, as Notion does). Both run on the wall clock here, because the gap between sending a request
 * and its arrival is what the limiter must allow for; the outcome does not depend on how fast the machine is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.ts';
import { NotionRequester, type NotionObjectStore } from '../../../src/notion/notion-requester.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';

const TOKEN = 'secret_rate_token';
const RATE = 20;
const noObjects: NotionObjectStore = { get: async () => null, set: async () => undefined, claim: async () => true, remove: async () => undefined };

describe('Notion requests at the rate limit', () => {
  let fake: FakeNotion;
  beforeEach(async () => {
    fake = await startFakeNotion({ clock: systemClock, tokens: [TOKEN], requestsPerSecond: RATE });
  });
  afterEach(async () => fake.close());

  /** `count` requests, `callers` at a time, through `requester`. */
  async function requests(requester: NotionRequester, callers: number, count: number): Promise<void> {
    const caller = async () => {
      for (let index = 0; index < count / callers; index += 1) await requester.call(() => requester.client.pages.retrieve({ page_id: fake.parentPageId }));
    };
    await Promise.all(Array.from({ length: callers }, caller));
  }

  const requester = (processes?: () => number) =>
    new NotionRequester({
      auth: TOKEN,
      baseUrl: fake.url,
      clock: systemClock,
      requestsPerSecond: RATE,
      objects: noObjects,
      ...(processes ? { processes } : {}),
    });

  it('never draw a 429 when several callers share one integration', async () => {
    await requests(requester(), 4, 60);
    expect(fake.requests).toHaveLength(60);
    expect(fake.rateLimited).toBe(0);
  });

  it('never draw a 429 when two processes share it, each taking half of the budget', async () => {
    await Promise.all([
      requests(
        requester(() => 2),
        3,
        30,
      ),
      requests(
        requester(() => 2),
        3,
        30,
      ),
    ]);
    expect(fake.requests).toHaveLength(60);
    expect(fake.rateLimited).toBe(0);
  });
});
