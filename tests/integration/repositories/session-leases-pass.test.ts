import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionLeasesRepository } from '../../../src/repositories/session-leases-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';

const now = new Date('2026-03-01T10:00:00Z');
const minutes = (count: number) => new Date(now.getTime() + count * 60_000);

describe.each(ENGINES)("an owner's pass over its sessions on %s", (engine) => {
  let handle: DatabaseHandle;
  let leases: SessionLeasesRepository;
  let messages: MessagesRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    leases = new SessionLeasesRepository(handle.db);
    messages = new MessagesRepository(handle.db);
    const sessions = new SessionsRepository(handle.db);
    // Created out of order: the orphans come oldest first, not in the order they were stored.
    const made: Array<[string, 'active' | 'paused', number]> = [
      ['mine-1', 'active', 0],
      ['mine-2', 'active', 1],
      ['mine-paused', 'paused', 2],
      ['free-newer', 'active', 5],
      ['free-older', 'active', -5],
      ['lapsed', 'active', 3],
      ['other', 'active', 4],
    ];
    for (const [id, status, at] of made) {
      const session = { id, parentId: null, transport: 'local', roomId: `room-${id}`, roomUrl: null, originChannelId: null, originMessageId: null };
      await sessions.create({ ...session, topic: 't', status, createdBy: { id: 'u', name: 'U' } }, minutes(at));
    }
    for (const id of ['mine-1', 'mine-2', 'mine-paused']) expect(await leases.acquire(id, 'owner-a', now, minutes(1))).toBe(true);
    expect(await leases.acquire('other', 'owner-b', now, minutes(1))).toBe(true);
    expect(await leases.acquire('lapsed', 'owner-b', minutes(-2), minutes(-1))).toBe(true);
  });
  afterEach(async () => handle.close());

  const say = async (sessionId: string, kind: 'human' | 'participant') => {
    const speaker = kind === 'human' ? ({ kind, id: 'u', name: 'U' } as const) : ({ kind, name: 'Claude' } as const);
    const role = kind === 'human' ? 'user' : 'assistant';
    const stored = await messages.insert({ sessionId, sourceId: null, speaker, role, text: 'x', deliveryStatus: 'delivered' }, now);
    return stored.message.id;
  };
  const mine = ['mine-1', 'mine-2', 'mine-paused'];
  const pass = (ownerId: string, sessionIds: string[], afterId: number, orphanLimit = 50, seenIds: number[] = []) =>
    leases.ownerPass({ ownerId, sessionIds, afterId, seenIds, now, orphanLimit });

  it("reads its sessions' statuses, people's messages after a point in order, and the orphans oldest first", async () => {
    const first = await say('mine-2', 'human');
    await say('mine-1', 'participant');
    const second = await say('mine-1', 'human');
    await say('other', 'human');
    const third = await say('mine-2', 'human');

    const found = await pass('owner-a', [...mine, 'gone'], 0);
    expect(Object.fromEntries(found.statuses)).toEqual({ 'mine-1': 'active', 'mine-2': 'active', 'mine-paused': 'paused' });
    expect(found.humanMessages).toEqual([
      { id: first, sessionId: 'mine-2' },
      { id: second, sessionId: 'mine-1' },
      { id: third, sessionId: 'mine-2' },
    ]);
    expect(found.orphans).toEqual(['free-older', 'lapsed', 'free-newer']);
    expect(found.kicks).toEqual([]);

    expect((await pass('owner-a', mine, second, 2)).humanMessages).toEqual([{ id: third, sessionId: 'mine-2' }]);
    expect((await pass('owner-a', mine, second, 2)).orphans).toEqual(['free-older', 'lapsed']);
  });

  it('leaves out the messages it was handed already, so they never crowd out one it has not seen', async () => {
    const handed: number[] = [];
    for (let index = 0; index < 501; index += 1) handed.push(await say('mine-1', 'human'));
    const storedElsewhere = await say('mine-2', 'human');
    expect((await pass('owner-a', mine, 0)).humanMessages).toHaveLength(500);
    expect((await pass('owner-a', mine, 0, 50, handed)).humanMessages).toEqual([{ id: storedElsewhere, sessionId: 'mine-2' }]);
  });

  it('renews the leases it still holds among those it names, and no other', async () => {
    expect((await leases.renew('owner-a', ['mine-1'], minutes(2))).sort()).toEqual(['mine-1']);
    expect((await leases.renew('owner-a', [...mine, 'other', 'free-older'], minutes(2))).sort()).toEqual([...mine].sort());
    // The lease owner-b holds was not extended: it lapses as it would have.
    expect(await leases.acquire('other', 'owner-a', minutes(1.5), minutes(3))).toBe(true);
  });

  it('takes the kicks asked of this owner once, and leaves the kicks of others', async () => {
    expect(await leases.requestKick('mine-2')).toBe(true);
    expect(await leases.requestKick('other')).toBe(true);
    expect((await pass('owner-a', mine, 0)).kicks).toEqual(['mine-2']);
    expect((await pass('owner-a', mine, 0)).kicks).toEqual([]);
    expect((await pass('owner-b', ['other'], 0)).kicks).toEqual(['other']);
  });

  it('with no session of its own still finds the orphans and its kicks', async () => {
    await say('mine-1', 'human');
    const found = await pass('owner-c', [], 0);
    expect(found).toEqual({ statuses: new Map(), kicks: [], humanMessages: [], orphans: ['free-older', 'lapsed', 'free-newer'] });
  });
});
