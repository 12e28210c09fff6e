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
const noObjects: NotionObjectStore = { get: async () => null, set: async () => undefined, remove: async () => undefined };

describe('Notion requests at the rate limit', () => {
  let fake: FakeNotion;
  beforeEach(async () => {
    fake = await startFakeNotion({ clock: systemClock, tokens: [TOKEN], requestsPerSecond: RATE });
  });
  afterEach(async () => fake.close());

  it('never draw a 429 when several callers share one integration', async () => {
    const requester = new NotionRequester({ auth: TOKEN, baseUrl: fake.url, clock: systemClock, requestsPerSecond: RATE, objects: noObjects });
    const caller = async () => {
      for (let index = 0; index < 15; index += 1) await requester.call(() => requester.client.pages.retrieve({ page_id: fake.parentPageId }));
    };
    await Promise.all([caller(), caller(), caller(), caller()]);
    expect(fake.requests).toHaveLength(60);
    expect(fake.rateLimited).toBe(0);
  });
});
