/**
 * Sessions whose rounds stopped because the database became unreachable mid-round. Their loops dropped what they held
 * in memory (it would fail again at once, for the whole outage); the store still has every person's message, so the
 * session's owner resumes each one from it, as after a restart, once the database answers again (SessionOwnership).
 */
export class StalledSessions {
  private readonly since = new Map<string, number>();

  /** Notes that the session's rounds stopped at `at` (the first time counts until it is resumed). */
  add(sessionId: string, at: Date): void {
    if (!this.since.has(sessionId)) this.since.set(sessionId, at.getTime());
  }

  /** The stalled sessions, each with when its rounds stopped (ms since the epoch). */
  list(): [sessionId: string, stoppedAt: number][] {
    return [...this.since.entries()];
  }

  /** The session was resumed (or is no longer this process's to resume). */
  resumed(sessionId: string): void {
    this.since.delete(sessionId);
  }
}
