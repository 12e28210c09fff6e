import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LocalDelivery } from '../../../src/core/local-channel.ts';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { LocalDeliveriesRepository } from '../../../src/repositories/local-deliveries-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const delivery = (externalId: string, roomId: string, content: string): LocalDelivery => ({
  externalId,
  roomId,
  speaker: { kind: 'planner', name: 'Planner' },
  content,
  replyTo: [{ messageId: 3, externalId: 'lin_3', speakerName: 'Sam', excerpt: 'Name it', url: null }],
  actions: ['approve_plan'],
  buttons: [{ label: 'Done 1', command: 'done', args: '1@abcd1234', then: 'steps' }],
  simulated: true,
  deliveredAt: '2026-03-01T10:00:00.000Z',
});

describe.each(ENGINES)('the local channel kept in the database, on %s', (engine) => {
  let handle: DatabaseHandle;
  let store: LocalDeliveriesRepository;
  const room = `room_${engine}_${Math.random().toString(36).slice(2, 8)}`;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    store = new LocalDeliveriesRepository(handle.db);
  });
  afterEach(async () => handle.close());

  it('gives a room its newest deliveries, oldest first, as they were delivered (buttons, replies and all)', async () => {
    for (const [index, text] of ['one', 'two', 'three'].entries()) await store.save(delivery(`lmsg_${room}_${index}`, room, text));
    await store.save(delivery(`lmsg_${room}_other`, `${room}_other`, 'elsewhere'));
    expect((await store.listForRoom(room, 10)).map((entry) => entry.content)).toEqual(['one', 'two', 'three']);
    expect((await store.listForRoom(room, 2)).map((entry) => entry.content)).toEqual(['two', 'three']);
    expect((await store.listForRoom(room, 1))[0]).toEqual(delivery(`lmsg_${room}_2`, room, 'three'));
  });

  it('keeps a delivery saved twice (a retried delivery) once, as first kept', async () => {
    await store.save(delivery(`lmsg_${room}_x`, room, 'first'));
    await store.save(delivery(`lmsg_${room}_x`, room, 'again'));
    expect((await store.listForRoom(room, 10)).map((entry) => entry.content)).toEqual(['first']);
  });
});
