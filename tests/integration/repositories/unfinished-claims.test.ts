/**
 * A process that claimed a person's message and died before it stored or settled it (its claim's answer lost, the
 * message held, the process killed) leaves a claim nobody would act on: the message was lost for good. Such a claim is
 * found again, from the process's last hour, and is anyone's to take over; a live process's, a settled one, and a
 * stored message's are not.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/create-database.ts';
import { InboundRepository } from '../../../src/repositories/inbound-repository.ts';
import { JobsRepository } from '../../../src/repositories/jobs-repository.ts';
import { MessagesRepository } from '../../../src/repositories/messages-repository.ts';
import { SessionsRepository } from '../../../src/repositories/sessions-repository.ts';
import { ENGINES, openTestDatabase } from '../../support/databases.ts';
import { storeSession } from '../../support/service-doubles.ts';
import { ManualClock } from '../../../src/core/clock.ts';

const now = new Date('2026-03-01T10:00:00Z');
const later = new Date('2026-03-01T10:05:00Z');
const dead = { id: 'wrk-dead', again: false };
const alive = { id: 'wrk-alive', again: false };
const next = { id: 'wrk-next', again: false };

describe.each(ENGINES)('claims a process that is gone never handled, on %s', (engine) => {
  let handle: DatabaseHandle;
  let inbound: InboundRepository;
  let jobs: JobsRepository;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    inbound = new InboundRepository(handle.db);
    jobs = new JobsRepository(handle.db);
    for (const instance of [dead, alive, next]) await jobs.registerInstance({ id: instance.id, host: 'h', pid: 1 }, now);
  });
  afterEach(async () => handle.close());

  it('finds the unfinished claims of a stopped process, oldest first, and lets another process take them over once', async () => {
    await inbound.claimAndAdvance('discord', 'room', '102', now, dead);
    await inbound.claimAndAdvance('discord', 'room', '101', now, dead);
    await inbound.claimAndAdvance('discord', 'other', '103', new Date(now.getTime() + 1), alive);
    // Nothing while the process lives: its claims are in hand.
    expect(await inbound.unfinished('discord', later)).toEqual([]);
    expect(await inbound.claimAndAdvance('discord', 'room', '101', later, next)).toBe(false);

    await jobs.stopInstance(dead.id, later);
    expect(await inbound.unfinished('discord', later)).toEqual([
      { channelId: 'room', externalId: '101' },
      { channelId: 'room', externalId: '102' },
    ]);
    expect(await inbound.unfinished('local', later)).toEqual([]);
    expect(await inbound.claimAndAdvance('discord', 'room', '101', later, next)).toBe(true);
    // Taken over: a third process (or a second read) leaves it alone, and it is no longer the dead process's.
    expect(await inbound.claimAndAdvance('discord', 'room', '101', later, alive)).toBe(false);
    expect(await inbound.unfinished('discord', later)).toEqual([{ channelId: 'room', externalId: '102' }]);
    // A live process's claim stays its own.
    expect(await inbound.claimAndAdvance('discord', 'other', '103', later, next)).toBe(false);
  });

  it('leaves out a settled claim (a command, a refusal) and a stored message, and keeps a settled one from being taken over', async () => {
    await storeSession(new SessionsRepository(handle.db), new ManualClock(now), { status: 'active' });
    await inbound.claimAndAdvance('discord', 'room', '201', now, dead);
    await inbound.claimAndAdvance('discord', 'room', '202', now, dead);
    await inbound.settle('discord', '201');
    await new MessagesRepository(handle.db).insert(
      {
        sessionId: 's1',
        speaker: { kind: 'human', id: 'u', name: 'U' },
        role: 'user',
        text: 'stored',
        deliveryStatus: 'delivered',
        sourceId: 'discord:202',
      },
      now,
    );
    await jobs.stopInstance(dead.id, later);
    expect(await inbound.unfinished('discord', later)).toEqual([]);
    expect(await inbound.claimAndAdvance('discord', 'room', '201', later, next)).toBe(false);
  });

  it('looks in the last hour of a process gone within a day', async () => {
    await inbound.claimAndAdvance('discord', 'room', '301', now, dead);
    await jobs.heartbeat(dead.id, new Date(now.getTime() + 2 * 60 * 60_000), now);
    await jobs.stopInstance(dead.id, later);
    expect(await inbound.unfinished('discord', later)).toEqual([]);
    await jobs.heartbeat(next.id, now, now);
    await inbound.claimAndAdvance('discord', 'room', '302', now, next);
    await jobs.stopInstance(next.id, now);
    expect(await inbound.unfinished('discord', new Date(now.getTime() + 25 * 60 * 60_000))).toEqual([]);
    expect(await inbound.unfinished('discord', later)).toEqual([{ channelId: 'room', externalId: '302' }]);
  });
});
