/**
 * An object Notion created while the database went away: its id is kept once the database answers, through the real
 * @notionhq/client against the fake. Before, the job failed with the intent left behind it, and every other process
 * waited the intent out (45 s) before looking the object up: a session's row came a minute late in a chaos day.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../src/core/clock.ts';
import { DatabaseUnreachableError } from '../../../src/core/database-unreachable.ts';
import { NotionRequester, type NotionObjectStore } from '../../../src/notion/notion-requester.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';

const TOKEN = 'secret_create_once_token';

/** Wall time, and waits that end at once: the retry's pause is not what is tested. */
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };

/** Notion ids kept in memory; the next `failures` writes fail as if the database were unreachable. */
function objectStore(failures: number): NotionObjectStore & { kept: Map<string, string> } {
  const kept = new Map<string, string>();
  let failing = failures;
  const write = () => {
    if (failing-- > 0) throw new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });
  };
  return {
    kept,
    get: async (key) => kept.get(key) ?? null,
    set: async (key, value) => {
      write();
      kept.set(key, value);
    },
    claim: async (key, value) => {
      if (kept.has(key)) return false;
      kept.set(key, value);
      return true;
    },
    remove: async (key) => {
      write();
      kept.delete(key);
    },
  };
}

describe('creating a Notion object once', () => {
  let fake: FakeNotion;
  beforeEach(async () => {
    fake = await startFakeNotion({ clock: systemClock, tokens: [TOKEN] });
  });
  afterEach(async () => fake.close());

  it('keeps the id of an object Notion created while the database was away, once it answers, and creates it once', async () => {
    const objects = objectStore(2);
    const requester = new NotionRequester({ auth: TOKEN, baseUrl: fake.url, clock, requestsPerSecond: 3, objects });
    const create = () =>
      requester.call(() =>
        requester.client.pages.create({ parent: { page_id: fake.parentPageId }, properties: { title: { title: [{ text: { content: 'Row' } }] } } }),
      );
    const made = await requester.createOnce('session:s1:row', async () => null, create);
    expect(made.existed).toBe(false);
    expect(objects.kept.get('session:s1:row')).toBe(made.id);
    expect(objects.kept.has('intent:session:s1:row')).toBe(false);
    expect(fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/pages')).toHaveLength(1);
  });
});
