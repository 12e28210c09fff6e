import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');

describe.each(ENGINES)('message numbers on %s', (engine) => {
  let handle: DatabaseHandle;
  let messages: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    messages = new MessagesRepository(handle.db);
    const sessions = new SessionsRepository(handle.db);
    for (const id of ['s1', 's2']) {
      await sessions.create(
        {
          id,
          parentId: null,
          transport: 'local',
          roomId: `r-${id}`,
          roomUrl: null,
          originChannelId: null,
          originMessageId: null,
          topic: 't',
          status: 'active',
          createdBy: { id: 'u', name: 'U' },
        },
        now,
      );
    }
  });
  afterEach(async () => handle.close());

  const say = (sessionId: string, text: string, sourceId: string | null = null) =>
    messages.insert({ sessionId, sourceId, speaker: { kind: 'participant', name: 'Claude' }, role: 'assistant', text, deliveryStatus: 'delivered' }, now);

  it('numbers each session from 1, whatever other sessions said in between, and keeps a number on a repeated source id', async () => {
    await say('s1', 'a');
    await say('s2', 'b');
    await say('s2', 'c');
    const first = await say('s1', 'd', 'discord-1');
    const again = await say('s1', 'd', 'discord-1');
    expect(first.message.number).toBe(2);
    expect(again).toMatchObject({ created: false, message: { number: 2 } });
    expect((await messages.listForSession('s2')).map((message) => message.number)).toEqual([1, 2]);
  });

  it('gives writers racing in one session distinct numbers, one statement each when they share a process', async () => {
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    const counted = new MessagesRepository(handle.db.withPlugin(counting));
    const row = (index: number) => ({
      sessionId: 's1',
      sourceId: null,
      speaker: { kind: 'participant' as const, name: 'Claude' },
      role: 'assistant' as const,
      text: `m${index}`,
      deliveryStatus: 'delivered' as const,
    });
    const stored = await Promise.all(Array.from({ length: 8 }, (_, index) => counted.insert(row(index), now)));
    expect(stored.map((entry) => entry.message.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Racing for one number, the losers would have been sent again.
    expect(statements).toBe(8);
  });

  it('gives writers of two processes racing in one session distinct numbers', async () => {
    const other = new MessagesRepository(handle.db);
    const stored = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? messages : other).insert(
          {
            sessionId: 's1',
            sourceId: null,
            speaker: { kind: 'participant', name: 'Claude' },
            role: 'assistant',
            text: `m${index}`,
            deliveryStatus: 'delivered',
          },
          now,
        ),
      ),
    );
    expect(stored.map((entry) => entry.message.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
