import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { SessionStatus } from '../../../../src/core/domain.ts';
import { RoomClosures } from '../../../../src/services/sessions/room-closures.ts';
import { openRepositories, quietLogger, storeSession, type TestRepositories } from '../../../support/service-doubles.ts';

const opened: TestRepositories[] = [];
afterEach(async () => {
  for (const repositories of opened.splice(0)) await repositories.handle.close();
});

/** Sessions s1 (active), s2 (awaiting approval), s3 (completed), all opened from channel-1, and what was ended. */
async function fixture() {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  opened.push(repositories);
  const statuses: [string, SessionStatus][] = [
    ['s1', 'active'],
    ['s2', 'awaiting_approval'],
    ['s3', 'completed'],
  ];
  for (const [id, status] of statuses) await storeSession(repositories.sessions, clock, { id, status });
  const ended: string[] = [];
  const closures = new RoomClosures({
    sessions: repositories.sessions,
    ender: { end: async (sessionId, status, reason) => void ended.push(`${sessionId} ${status}: ${reason}`) },
    logger: quietLogger(),
  });
  return { closures, ended };
}

describe('RoomClosures', () => {
  it("ends a closed room's live session as stopped, with the reason", async () => {
    const { closures, ended } = await fixture();
    expect(await closures.close({ transport: 'memory', channelId: 'room-s1', scope: 'room', reason: 'the thread was deleted' })).toEqual(['s1']);
    expect(ended).toEqual(['s1 stopped: the thread was deleted']);
  });

  it('leaves a finished session, another transport and an unknown room alone', async () => {
    const { closures, ended } = await fixture();
    expect(await closures.close({ transport: 'memory', channelId: 'room-s3', scope: 'room', reason: 'gone' })).toEqual([]);
    expect(await closures.close({ transport: 'discord', channelId: 'room-s1', scope: 'room', reason: 'gone' })).toEqual([]);
    expect(await closures.close({ transport: 'memory', channelId: 'room-nobody', scope: 'room', reason: 'gone' })).toEqual([]);
    expect(ended).toEqual([]);
  });

  it('a deleted channel ends every live session opened from it, and a room scope never reaches them', async () => {
    const { closures, ended } = await fixture();
    expect(await closures.close({ transport: 'memory', channelId: 'channel-1', scope: 'room', reason: 'gone' })).toEqual([]);
    expect((await closures.close({ transport: 'memory', channelId: 'channel-1', scope: 'channel', reason: 'channel deleted' })).sort()).toEqual(['s1', 's2']);
    expect(ended.sort()).toEqual(['s1 stopped: channel deleted', 's2 stopped: channel deleted']);
  });
});
