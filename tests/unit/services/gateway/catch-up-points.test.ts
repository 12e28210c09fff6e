import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { Session } from '../../../../src/core/domain.ts';
import { findCatchUpPoints, type CatchUpSources } from '../../../../src/services/gateway/catch-up-points.ts';

/** A live session in `roomId` on `transport`, as listByStatus returns it (only the fields the points read). */
const live = (id: string, transport: string, roomId: string) => ({ id, transport, roomId }) as Session;

describe('findCatchUpPoints', () => {
  it("reads the cursors of the brainstorm channels and the live sessions' rooms alone, not of every room a session ever had", async () => {
    const asked: string[][] = [];
    const cursors = new Map([
      ['brainstorm', '100'],
      ['room-live', '200'],
      ['room-ended', '300'],
    ]);
    const sources: CatchUpSources = {
      clock: new ManualClock('2026-05-01T09:00:00Z'),
      sessions: { listByStatus: async () => [live('s1', 'discord', 'room-live'), live('s2', 'local', 'room-local')] },
      messages: { listRecent: async () => [] },
      inbound: {
        cursors: async (_transport, channelIds) => {
          asked.push([...channelIds]);
          return new Map([...cursors].filter(([channelId]) => channelIds.includes(channelId)));
        },
        unfinished: async () => [],
      },
    };

    const points = await findCatchUpPoints(sources, 'discord', ['brainstorm']);

    expect(asked).toEqual([['brainstorm', 'room-live']]);
    expect(points).toEqual([
      { channelId: 'brainstorm', afterExternalId: '100' },
      { channelId: 'room-live', afterExternalId: '200', peopleSaid: [] },
    ]);
  });
});
