/** Who hears a `!continue`: the turn-taking entry point, so a shared session resumes in the process that holds it. */
import type { EventBus } from '../../core/ports.ts';

/**
 * Restarts a session's AI rounds when the lifecycle announces `session_resumed`. Wired to the entry point people's
 * messages use (the lease-aware coordinator of a process that shares sessions), never to the bare rounds, which
 * would start a round in a process that does not hold the session. Returns the unsubscribe function.
 */
export function restartRoundsOnResume(events: Pick<EventBus, 'subscribe'>, turns: { kick(sessionId: string): void }): () => void {
  return events.subscribe((event) => {
    if (event.type === 'session_resumed') turns.kick(event.sessionId);
  });
}
