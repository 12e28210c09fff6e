import type { ChatMessage } from '../../core/domain.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';

/** How many of a room's latest messages are read to find a person's previous one. */
const LOOK_BACK = 30;

/** Whether a model spoke between a person's previous message and `stored` (then `stored` is no flood). */
export async function answeredSincePrevious(
  messages: Pick<MessagesRepository, 'listRecent'>,
  sessionId: string,
  stored: ChatMessage,
  authorId: string,
): Promise<boolean> {
  const recent = await messages.listRecent(sessionId, LOOK_BACK);
  const before = recent.filter((message) => message.id < stored.id);
  const previous = before.findLastIndex((message) => message.speaker.kind === 'human' && message.speaker.id === authorId);
  if (previous === -1) return true;
  return before.slice(previous + 1).some((message) => message.speaker.kind === 'participant' || message.speaker.kind === 'moderator');
}
