/**
 * Where a catch-up reads each channel from: after the last message seen there, or from before the oldest message a
 * process that is gone claimed and never handled (its claim is then anyone's to take over: see InboundRepository).
 */
import type { Clock } from '../../core/clock.ts';
import { LIVE_STATUSES } from '../../core/domain.ts';
import type { CatchUpPoint, CatchUpScope } from '../../core/ports.ts';
import { isNewerId, type InboundRepository, type UnfinishedClaim } from '../../repositories/inbound-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';

/** How many of a room's latest stored messages a catch-up reads back for edits and deletions made meanwhile. */
const REREAD_MESSAGES = 100;

/** What finding the points reads. */
export interface CatchUpSources {
  sessions: Pick<SessionsRepository, 'listByStatus'>;
  messages: Pick<MessagesRepository, 'listRecent'>;
  inbound: Pick<InboundRepository, 'cursors' | 'unfinished'>;
  clock: Clock;
}

/**
 * The points a catch-up of `transport` reads from: its brainstorm channels already read, and its live sessions' rooms;
 * with `unfinishedOnly`, only the channels where a process that is gone left a message claimed and never handled.
 */
export async function findCatchUpPoints(
  sources: CatchUpSources,
  transport: string,
  brainstormChannelIds: readonly string[],
  scope: CatchUpScope = {},
): Promise<CatchUpPoint[]> {
  if (scope.unfinishedOnly) return unfinishedPoints(await sources.inbound.unfinished(transport, sources.clock.now()));
  const [live, unfinished] = await Promise.all([sources.sessions.listByStatus([...LIVE_STATUSES]), sources.inbound.unfinished(transport, sources.clock.now())]);
  const rooms = live.filter((session) => session.transport === transport);
  const cursors = await sources.inbound.cursors(transport, [...brainstormChannelIds, ...rooms.map((session) => session.roomId)]);
  const points: CatchUpPoint[] = [];
  // A brainstorm channel without a cursor was never read: its history is not a backlog of topics.
  for (const channelId of brainstormChannelIds) {
    const after = cursors.get(channelId);
    if (after) points.push({ channelId, afterExternalId: after });
  }
  for (const session of rooms) {
    const recent = await sources.messages.listRecent(session.id, REREAD_MESSAGES);
    const after = cursors.get(session.roomId) ?? recent.at(-1)?.externalIds.at(-1);
    const peopleSaid = recent.filter((message) => message.speaker.kind === 'human').flatMap((message) => message.externalIds);
    if (after) points.push({ channelId: session.roomId, afterExternalId: after, peopleSaid });
  }
  return points.map((point) => ({ ...point, afterExternalId: readFrom(point, unfinished) }));
}

/** Each channel with unfinished claims, read from just before its oldest. */
function unfinishedPoints(unfinished: readonly UnfinishedClaim[]): CatchUpPoint[] {
  const points = new Map<string, CatchUpPoint>();
  for (const claim of unfinished) {
    const before = justBefore(claim.externalId);
    const point = points.get(claim.channelId);
    if (before === null || (point && !isNewerId(point.afterExternalId, before))) continue;
    points.set(claim.channelId, { channelId: claim.channelId, afterExternalId: before });
  }
  return [...points.values()];
}

/** The point's own start, or just before the oldest unfinished claim in its channel when that is older. */
function readFrom(point: CatchUpPoint, unfinished: readonly UnfinishedClaim[]): string {
  let after = point.afterExternalId;
  for (const claim of unfinished) {
    if (claim.channelId !== point.channelId) continue;
    const before = justBefore(claim.externalId);
    if (before !== null && isNewerId(after, before)) after = before;
  }
  return after;
}

/** The id just before a snowflake (a read "after" it starts with the snowflake); null for ids that are not numbers. */
function justBefore(externalId: string): string | null {
  return /^\d+$/.test(externalId) && externalId !== '0' ? (BigInt(externalId) - 1n).toString() : null;
}
