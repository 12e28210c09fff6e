import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { startFakeNotion, type FakeNotion } from '../../fakes/notion/fake-notion.ts';

const TOKEN = 'secret_test_token';

async function failure(promise: Promise<unknown>): Promise<APIResponseError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIResponseError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

function paragraph(text: string) {
  return { object: 'block' as const, type: 'paragraph' as const, paragraph: { rich_text: [{ type: 'text' as const, text: { content: text } }] } };
}

describe('fake Notion through @notionhq/client', () => {
  const clock = new ManualClock();
  let fake: FakeNotion;
  let notion: Client;

  beforeAll(async () => {
    fake = await startFakeNotion({ clock, tokens: [TOKEN] });
    notion = new Client({ auth: TOKEN, baseUrl: fake.url, retry: false, logger: () => undefined });
  });
  afterAll(async () => fake.close());

  async function tick(): Promise<void> {
    await clock.advance(1000);
  }

  it('names who edited a page last: the integration after its writes, a person after theirs', async () => {
    await tick();
    const me = await notion.users.me({});
    expect(me).toMatchObject({ object: 'user', type: 'bot' });
    const page = await notion.pages.create({ parent: { page_id: fake.parentPageId }, properties: { title: { title: [{ text: { content: 'Edited' } }] } } });
    const lastEditor = async () => {
      const retrieved = await notion.pages.retrieve({ page_id: page.id });
      if (!('last_edited_by' in retrieved)) throw new Error('a full page object was expected');
      return retrieved.last_edited_by.id;
    };
    expect(await lastEditor()).toBe(me.id);
    await tick();
    fake.store.editAsPerson(page.id, []);
    expect(await lastEditor()).not.toBe(me.id);
    await notion.blocks.children.append({ block_id: page.id, children: [paragraph('Written by the integration again.')] });
    expect(await lastEditor()).toBe(me.id);
  });

  it('creates a database whose properties live on its data source (2025-09-03)', async () => {
    await tick();
    const database = await notion.databases.create({
      parent: { type: 'page_id', page_id: fake.parentPageId },
      title: [{ type: 'text', text: { content: 'Brainstorm Sessions' } }],
      initial_data_source: { properties: { Topic: { title: {} }, Messages: { number: {} }, Status: { select: { options: [{ name: 'active' }] } } } },
    });
    const retrieved = await notion.databases.retrieve({ database_id: database.id });
    expect('properties' in retrieved).toBe(false);
    const sourceId = 'data_sources' in retrieved ? retrieved.data_sources[0]?.id : undefined;
    expect(sourceId).toBeTruthy();
    const source = await notion.dataSources.retrieve({ data_source_id: sourceId ?? '' });
    expect(Object.keys('properties' in source ? source.properties : {}).sort()).toEqual(['Messages', 'Status', 'Topic']);

    await tick();
    const row = await notion.pages.create({
      parent: { data_source_id: sourceId ?? '' },
      properties: { Topic: { title: [{ text: { content: 'Caching' } }] }, Messages: { number: 12 }, Status: { select: { name: 'active' } } },
    });
    const query = await notion.dataSources.query({ data_source_id: sourceId ?? '', filter: { property: 'Topic', title: { equals: 'Caching' } } });
    expect(query.results.map((result) => result.id)).toEqual([row.id]);
    const missing = await failure(notion.pages.update({ page_id: row.id, properties: { Nope: { number: 1 } } }));
    expect(missing.code).toBe(APIErrorCode.ValidationError);
  });

  it('creates, reads and replaces a page as markdown', async () => {
    await tick();
    const page = await notion.pages.create({
      parent: { page_id: fake.parentPageId },
      properties: { title: { title: [{ text: { content: 'Record' } }] } },
      markdown: '# Title\n\n- one\n- two\n\nplain',
    });
    const read = await notion.pages.retrieveMarkdown({ page_id: page.id });
    expect(read.markdown).toBe('# Title\n- one\n- two\nplain');
    await notion.pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: '## New' } });
    await tick();
    expect((await notion.pages.retrieveMarkdown({ page_id: page.id })).markdown).toBe('## New');
  });

  it('paginates block children with start_cursor and has_more', async () => {
    await tick();
    const page = await notion.pages.create({
      parent: { page_id: fake.parentPageId },
      properties: { title: { title: [{ text: { content: 'Many' } }] } },
      children: Array.from({ length: 100 }, (_, index) => paragraph(`p${index}`)),
    });
    await notion.blocks.children.append({ block_id: page.id, children: Array.from({ length: 30 }, (_, index) => paragraph(`q${index}`)) });
    await tick();
    const first = await notion.blocks.children.list({ block_id: page.id });
    expect(first.results).toHaveLength(100);
    expect(first.has_more).toBe(true);
    const second = await notion.blocks.children.list({ block_id: page.id, start_cursor: first.next_cursor ?? undefined });
    expect(second.results).toHaveLength(30);
    expect(second.has_more).toBe(false);
  });

  it('refuses requests that break a limit with 400 validation_error and counts them', async () => {
    await tick();
    const before = fake.violations;
    const page = await notion.pages.create({ parent: { page_id: fake.parentPageId }, properties: { title: { title: [{ text: { content: 'Limits' } }] } } });
    const tooMany = await failure(notion.blocks.children.append({ block_id: page.id, children: Array.from({ length: 101 }, () => paragraph('x')) }));
    expect([tooMany.status, tooMany.code]).toEqual([400, APIErrorCode.ValidationError]);
    const tooLong = await failure(notion.blocks.children.append({ block_id: page.id, children: [paragraph('x'.repeat(2001))] }));
    expect(tooLong.code).toBe(APIErrorCode.ValidationError);
    await tick();
    const nested = {
      type: 'bulleted_list_item' as const,
      bulleted_list_item: {
        rich_text: [{ text: { content: 'a' } }],
        children: [{ type: 'bulleted_list_item' as const, bulleted_list_item: { rich_text: [{ text: { content: 'b' } }], children: [paragraph('c')] } }],
      },
    };
    const tooDeep = await failure(notion.blocks.children.append({ block_id: page.id, children: [nested] }));
    expect(tooDeep.code).toBe(APIErrorCode.ValidationError);
    expect(fake.violations - before).toBe(3);
  });

  it('answers 401, 404, 429 with Retry-After, and 503 during an outage', async () => {
    await tick();
    const bad = new Client({ auth: 'wrong', baseUrl: fake.url, retry: false, logger: () => undefined });
    expect((await failure(bad.pages.retrieve({ page_id: fake.parentPageId }))).code).toBe(APIErrorCode.Unauthorized);
    expect((await failure(notion.pages.retrieve({ page_id: '0123456789abcdef0123456789abcdef' }))).code).toBe(APIErrorCode.ObjectNotFound);
    await tick();
    await notion.pages.retrieve({ page_id: fake.parentPageId });
    await notion.pages.retrieve({ page_id: fake.parentPageId });
    await notion.pages.retrieve({ page_id: fake.parentPageId });
    const limited = await failure(notion.pages.retrieve({ page_id: fake.parentPageId }));
    expect(limited.code).toBe(APIErrorCode.RateLimited);
    expect(limited.headers).toBeDefined();
    expect(fake.requests.at(-1)?.status).toBe(429);
    await tick();
    fake.startOutage(60_000);
    expect((await failure(notion.pages.retrieve({ page_id: fake.parentPageId }))).code).toBe(APIErrorCode.ServiceUnavailable);
    await clock.advance(60_000);
    await expect(notion.pages.retrieve({ page_id: fake.parentPageId })).resolves.toMatchObject({ object: 'page' });
  });

  it('refuses the markdown endpoints when told to', async () => {
    await tick();
    fake.refuseMarkdown = true;
    try {
      const refused = await failure(notion.pages.retrieveMarkdown({ page_id: fake.parentPageId }));
      expect(refused.status).toBe(400);
    } finally {
      fake.refuseMarkdown = false;
    }
  });

  it('trashing a child page removes it from its parent children', async () => {
    await tick();
    const page = await notion.pages.create({ parent: { page_id: fake.parentPageId }, properties: { title: { title: [{ text: { content: 'Gone' } }] } } });
    await notion.pages.update({ page_id: page.id, in_trash: true });
    const children = await notion.blocks.children.list({ block_id: fake.parentPageId });
    expect(children.results.map((block) => block.id)).not.toContain(page.id);
  });
});
