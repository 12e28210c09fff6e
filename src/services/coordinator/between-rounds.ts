/** The session's hooks between two rounds: the documentation's, then the Moderator's check, which no person waits for. */
import type { Logger } from 'pino';
import type { Session } from '../../core/domain.ts';
import type { DocumentationHooks, ModerationPort } from '../../core/service-ports.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import { unlessPersonSpeaks, type Runtime } from './coordinator-runtime.ts';

/** What the hooks between rounds need. */
export interface BetweenRoundsDependencies {
  sessions: Pick<SessionsRepository, 'findById'>;
  documentation: DocumentationHooks;
  moderation: ModerationPort;
  logger: Logger;
}

/**
 * Runs the hooks after a round. `current`: the session as the round's update returned it (no second read). Resolves
 * with the session as the hooks left it, null when it is no longer active, or `person` when a person spoke during
 * the Moderator's check: they are answered at once, and the check goes on beside their round.
 */
export async function hooksBetweenRounds(
  dependencies: BetweenRoundsDependencies,
  sessionId: string,
  runtime: Runtime,
  current: Session | null,
): Promise<Session | null | 'person'> {
  const { sessions, documentation, moderation, logger } = dependencies;
  const session = current ?? (await sessions.findById(sessionId));
  if (!session || session.status !== 'active') return null;
  await documentation.onMessage(sessionId).catch((error: unknown) => logger.warn({ err: error }, 'documentation hook failed'));
  const check = moderation.afterRound(session).catch((error: unknown) => {
    logger.warn({ err: error }, 'moderation check failed');
    return true;
  });
  const changed = await unlessPersonSpeaks(runtime, check);
  if (changed === 'person') return 'person';
  // Hooks that changed nothing leave the session as the round's update returned it: no second read.
  const after = changed ? await sessions.findById(sessionId) : session;
  return after && after.status === 'active' ? after : null;
}
