/** Storing what a person said: once, on its transport id, before anything acts on it. */
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { EventBus, InboundMessage } from '../../core/ports.ts';

/** What storing a person's message needs. */
export interface PersonMessageStore {
  sessions: Pick<SessionsRepository, 'addUsage'>;
  messages: Pick<MessagesRepository, 'insert'>;
  events: Pick<EventBus, 'publish'>;
  clock: Clock;
}

/** Stores `text` as `message`'s author said it in `session`; null when it was stored before (a redelivery). */
export async function storePersonMessage(store: PersonMessageStore, session: Session, message: InboundMessage, text: string): Promise<ChatMessage | null> {
  const now = store.clock.now();
  const { message: stored, created } = await store.messages.insert(
    {
      sessionId: session.id,
      sourceId: `${message.transport}:${message.externalId}`,
      speaker: { kind: 'human', name: message.author.name, id: message.author.id },
      role: 'user',
      text,
      deliveryStatus: 'received',
      externalIds: [message.externalId],
      externalUrl: message.url ?? null,
    },
    now,
  );
  if (!created) return null;
  // In a discussion the flood gate decides whether a message counts; elsewhere every message does.
  if (session.status !== 'active') await store.sessions.addUsage(session.id, { messages: 1, tokens: 0, costUsd: 0 }, now);
  store.events.publish({ type: 'message', message: stored });
  return stored;
}
