/** Who a session still owes an answer, read from its recent messages when a process takes it over. */
import type { ChatMessage, Session } from '../../core/domain.ts';

/**
 * People who spoke since the discussion began and whom no participant answered. An answer cut short by the
 * previous owner's stop is no answer: the person is answered again. The room's notice that every model only repeated
 * itself replies to the people it answered: asked again, the same models would say the same.
 */
export function unansweredPeople(session: Pick<Session, 'startedAt'>, recent: ChatMessage[]): ChatMessage[] {
  const answers = recent.filter((message) => (message.speaker.kind === 'participant' && !message.interrupted) || message.speaker.kind === 'system');
  const answered = new Set(answers.flatMap((message) => message.replyTo));
  const since = session.startedAt?.getTime() ?? 0;
  return recent.filter((message) => message.speaker.kind === 'human' && !answered.has(message.id) && message.createdAt.getTime() >= since);
}

/** How long an approval may take to post the Moderator's opening; after that, a session without one is resumed as usual. */
export const OPENING_GRACE_MS = 120_000;

/**
 * Where a session's opening stands: `opened` once anything was said since the discussion began; `awaiting` while the
 * approval that just activated it is still writing the Moderator's opening (which starts the rounds: a round kicked
 * before it would be cut by it at once, three model calls sent and aborted); `overdue` when the approval left it
 * without one for longer than the grace (its process died), so it goes on as after a restart.
 */
export function openingState(session: Pick<Session, 'startedAt'>, recent: ChatMessage[], now: Date): 'opened' | 'awaiting' | 'overdue' {
  const since = session.startedAt?.getTime();
  if (since === undefined || recent.some((message) => message.createdAt.getTime() >= since)) return 'opened';
  return now.getTime() - since < OPENING_GRACE_MS ? 'awaiting' : 'overdue';
}
