import type { Session } from './domain.ts';

/** What the clock needs of a session. */
export type ClockedSession = Pick<Session, 'startedAt' | 'clockStartedAt' | 'pausedAt' | 'endedAt'>;

/**
 * Milliseconds a session has run for its time limit: paused time is left out (the clock start moves
 * forward on `!continue`; a pause in progress stops the count), and `!reset` restarts it.
 */
export function activeMs(session: ClockedSession, now: Date): number {
  const start = session.clockStartedAt ?? session.startedAt;
  if (!start) return 0;
  const end = session.pausedAt ?? session.endedAt ?? now;
  return Math.max(0, end.getTime() - start.getTime());
}

/** When an active session's time limit falls due, given its timeout in minutes. */
export function timeLimitDueAt(session: ClockedSession, timeoutMinutes: number, now: Date): Date {
  return new Date(now.getTime() - activeMs(session, now) + timeoutMinutes * 60_000);
}
