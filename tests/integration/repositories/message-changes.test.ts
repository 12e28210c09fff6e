import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ManualClock } from '../../../src/core/clock.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { PersonRevisionsRepository } from '../../../src/repositories/person-revisions-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import type { NewMessage } from '../../../src/repositories/message-rows.ts';
import type { MessageChanges } from '../../../src/repositories/message-changes.ts';
import type { ChatMessage } from '../../../src/core/domain.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { storeSession } from '../../support/service-doubles.ts';

const now = new Date('2026-03-01T10:00:00.000Z');
const clock = new ManualClock(now);
const said = (text: string, sessionId = 's1'): NewMessage => ({
  sessionId,
  speaker: { kind: 'human', name: 'Ada', id: 'u-ada' },
  role: 'user',
  text,
  deliveryStatus: 'pending',
});
const texts = (messages: { text: string }[]) => messages.map((message) => message.text);
/**
 * The changed messages unlike any of `seen`: a read from a horizon may bring rows read before again, unchanged (on a
 * Postgres server other databases' open transactions hold the horizon back), and only the others are news.
 */
const news = (changes: MessageChanges, seen: readonly ChatMessage[]) =>
  changes.changed.filter((message) => !seen.some((known) => isDeepStrictEqual(known, message)));

describe.each(ENGINES)('reading what changed in a session since a horizon on %s', (engine) => {
  let handle: DatabaseHandle;
  let messages: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    messages = new MessagesRepository(handle.db);
    const sessions = new SessionsRepository(handle.db);
    for (const id of ['s1', 's2']) await storeSession(sessions, clock, { id });
  });
  afterEach(async () => handle.close());

  it('reads the newest messages as listRecent does, then only the rows stored, changed or deleted since', async () => {
    const first = await messages.insert(said('one'), now);
    const second = await messages.insert(said('two'), now);
    await messages.insert(said('three'), now);
    const recent = await messages.recentAtHorizon('s1', 2);
    expect(recent.messages).toEqual(await messages.listRecent('s1', 2));
    const before = await messages.listForSession('s1');
    expect(texts(news(await messages.changesSince('s1', recent.horizon), before))).toEqual([]);

    await messages.insert(said('four'), now);
    await messages.insert(said('elsewhere', 's2'), now);
    await messages.setDeliveryStatus(first.message.id, 'delivered');
    await new PersonRevisionsRepository(handle.db).revise(second.message.id, 'two, edited', now);
    const changes = await messages.changesSince('s1', recent.horizon);
    expect(texts(news(changes, before))).toEqual(['one', 'two, edited', 'four']);
    expect(changes.changed.find((message) => message.id === first.message.id)?.deliveryStatus).toBe('delivered');
    expect(changes.deletedIds).toEqual([]);

    const beforeDelete = await messages.listForSession('s1');
    await new PersonRevisionsRepository(handle.db).remove(first.message.id, now);
    const afterDelete = await messages.changesSince('s1', changes.horizon);
    expect(afterDelete.deletedIds).toEqual([first.message.id]);
    expect(texts(news(afterDelete, beforeDelete))).toEqual([]);
  });

  it('leaves rows stored before the migration unnamed until a write names them', async () => {
    const old = await messages.insert(said('before the migration'), now);
    // As migration 0025 leaves a row stored before it: no transaction named.
    await sql`alter table messages disable trigger messages_changed`.execute(handle.db);
    await sql`update messages set changed_xid = null`.execute(handle.db);
    await sql`alter table messages enable trigger messages_changed`.execute(handle.db);
    const recent = await messages.recentAtHorizon('s1', 200);
    expect(texts(recent.messages)).toEqual(['before the migration']);
    expect(texts((await messages.changesSince('s1', '0')).changed)).toEqual([]);
    await messages.setDeliveryStatus(old.message.id, 'delivered');
    expect(texts((await messages.changesSince('s1', recent.horizon)).changed)).toEqual(['before the migration']);
  });

  it('answers a horizon for a session without messages, and the first message after it', async () => {
    const empty = await messages.recentAtHorizon('s1', 200);
    expect(empty.messages).toEqual([]);
    await messages.insert(said('first'), now);
    expect(texts((await messages.changesSince('s1', empty.horizon)).changed)).toEqual(['first']);
  });
});

describe('a write that commits after a read of changes on postgres', () => {
  let handle: DatabaseHandle;
  let messages: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase('postgres');
    messages = new MessagesRepository(handle.db);
    await storeSession(new SessionsRepository(handle.db), clock);
  });
  afterEach(async () => handle.close());

  it('comes with the next read, though later writes were read first', async () => {
    const stored = await messages.insert(said('one'), now);
    let horizon = (await messages.recentAtHorizon('s1', 200)).horizon;
    let commit: () => void = () => undefined;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written: () => void = () => undefined;
    const writtenInTransaction = new Promise<void>((resolve) => (written = resolve));
    // Another process's transaction changes the message and stores one more, and stays open.
    const transaction = handle.db.transaction().execute(async (trx) => {
      await new MessagesRepository(trx).setDeliveryStatus(stored.message.id, 'delivered');
      await sql`select 1`.execute(trx);
      written();
      await committed;
    });
    try {
      await writtenInTransaction;
      // Meanwhile a later transaction commits a message of its own: a read now sees it, not the open one's rows.
      await messages.insert(said('two'), now);
      const meanwhile = await messages.changesSince('s1', horizon);
      expect(texts(news(meanwhile, [stored.message]))).toEqual(['two']);
      horizon = meanwhile.horizon;
    } finally {
      // Committed whatever happened above: a transaction left open would hold the test's database until its timeout.
      commit();
      await transaction;
    }
    const after = await messages.changesSince('s1', horizon);
    expect(after.changed.find((message) => message.id === stored.message.id)?.deliveryStatus).toBe('delivered');
  });
});
