/** Who a session still owes an answer, read from its recent messages when a process takes it over. */
import type { ChatMessage, Session } from '../../core/domain.ts';

/**
 * People who spoke since the discussion began and whom no participant answered. An answer cut short by the
 * previous owner's stop is no answer: the person is answered again.
 */
export function unansweredPeople(session: Pick<Session, 'startedAt'>, recent: ChatMessage[]): ChatMessage[] {
  const answers = recent.filter((message) => message.speaker.kind === 'participant' && !message.interrupted);
  const answered = new Set(answers.flatMap((message) => message.replyTo));
  const since = session.startedAt?.getTime() ?? 0;
  return recent.filter((message) => message.speaker.kind === 'human' && !answered.has(message.id) && message.createdAt.getTime() >= since);
}
