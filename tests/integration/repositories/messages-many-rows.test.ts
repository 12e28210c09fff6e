import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryStatus, Speaker } from '../../../src/core/domain.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const start = new Date('2026-03-01T10:00:00.123Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe.each(ENGINES)('reading many messages as rows or as one JSON value on %s', (engine) => {
  let handle: DatabaseHandle;
  let asRows: MessagesRepository;
  let asJson: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    asRows = new MessagesRepository(handle.db, { manyRowsAs: 'rows' });
    asJson = new MessagesRepository(handle.db, { manyRowsAs: 'json' });
    const sessions = new SessionsRepository(handle.db);
    for (const id of ['s1', 's2']) {
      const session = { id, parentId: null, transport: 'local', roomId: `r-${id}`, roomUrl: null, originChannelId: null, originMessageId: null };
      await sessions.create({ ...session, topic: 't', status: 'active', createdBy: { id: 'u', name: 'U' } }, start);
    }
    // Every shape a message takes: a person with an id, an answer with usage, citations and a cut mark, a withheld
    // one, one delivered in two chunks, one of another session, and one deleted.
    const person = await asRows.insert(
      {
        sessionId: 's1',
        sourceId: 'd-1',
        speaker: { kind: 'human', name: 'Ada', id: 'u-ada' },
        role: 'user',
        text: 'Ideas?',
        deliveryStatus: 'delivered',
        externalIds: ['d-1'],
      },
      at(0),
    );
    await asRows.insert(
      {
        sessionId: 's1',
        speaker: { kind: 'participant', name: 'Claude' },
        role: 'assistant',
        text: 'Cache at the edge — "short" TTLs, ünïcode and a\nnew line.',
        model: 'anthropic/claude-sonnet-4',
        inputTokens: 2340,
        outputTokens: 44,
        costUsd: 0.00768,
        costSource: 'provider',
        replyTo: [person.message.id],
        traceId: 'trace_1',
        spanId: 'span_1',
        deliveryStatus: 'pending',
        interrupted: true,
        citations: [{ url: 'https://example.com/a', title: 'A' }],
        webSearches: 2,
      },
      at(1.5),
    );
    const store = (sessionId: string, speaker: Speaker, text: string, deliveryStatus: DeliveryStatus, seconds: number) =>
      asRows.insert({ sessionId, speaker, role: speaker.kind === 'human' ? 'user' : 'assistant', text, deliveryStatus }, at(seconds));
    await store('s1', { kind: 'participant', name: 'Grok' }, 'Withheld.', 'withheld', 2);
    const chunked = await store('s1', { kind: 'moderator', name: 'Moderator' }, 'On topic.', 'pending', 3);
    await asRows.appendExternalId(chunked.message.id, 'd-2', null);
    await asRows.appendExternalId(chunked.message.id, 'd-3', 'https://discord.com/channels/1/2/d-3');
    await store('s2', { kind: 'participant', name: 'Claude' }, 'Elsewhere.', 'delivered', 4);
    const deleted = await store('s1', { kind: 'human', name: 'Ada' }, 'Oops.', 'delivered', 5);
    await handle.db
      .updateTable('messages')
      .set({ deleted_at: at(6) })
      .where('id', '=', deleted.message.id)
      .execute();
  });
  afterEach(async () => handle.close());

  it('gives the same messages both ways, oldest first, for the recent window and for the whole session', async () => {
    const recent = await asJson.listRecent('s1', 200);
    expect(recent).toEqual(await asRows.listRecent('s1', 200));
    expect(recent.map((message) => message.text)).toEqual(['Ideas?', 'Cache at the edge — "short" TTLs, ünïcode and a\nnew line.', 'Withheld.', 'On topic.']);
    expect(await asJson.listRecent('s1', 2)).toEqual(await asRows.listRecent('s1', 2));
    expect(await asJson.listForSession('s1')).toEqual(await asRows.listForSession('s1'));
    const afterFirst = { afterId: recent[0]!.id, limit: 2 };
    expect(await asJson.listForSession('s1', afterFirst)).toEqual(await asRows.listForSession('s1', afterFirst));
    expect(await asJson.listRecent('nobody', 10)).toEqual([]);
    // Types survive the JSON: a Date to the millisecond, numbers, arrays and the content's extras.
    const answer = recent[1]!;
    expect(answer.createdAt).toEqual(at(1.5));
    expect(answer).toMatchObject({ costUsd: 0.00768, inputTokens: 2340, replyTo: [recent[0]!.id], interrupted: true, webSearches: 2 });
    expect(recent[3]).toMatchObject({ externalIds: ['d-2', 'd-3'], externalUrl: 'https://discord.com/channels/1/2/d-3' });
  });
});
