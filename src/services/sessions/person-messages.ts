/** Storing what a person said: once, on its transport id, before anything acts on it. */
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { EventBus, InboundMessage } from '../../core/ports.ts';

/** What storing a person's message needs. */
export interface PersonMessageStore {
  sessions: Pick<SessionsRepository, 'addUsage'>;
  messages: Pick<MessagesRepository, 'insert' | 'insertCountingTurn'>;
  events: Pick<EventBus, 'publish'>;
  clock: Clock;
}

/** A person's message as stored; `counted`: their session as counting the turn the message starts left it. */
export interface StoredPersonMessage {
  message: ChatMessage;
  counted: Session | null;
}

/**
 * Stores `text` as `message`'s author said it in `session`; null when it was stored before (a redelivery). `countTurn`:
 * the message starts a turn in a discussion (the flood gate said so), counted in the statement that stores it.
 */
export async function storePersonMessage(
  store: PersonMessageStore,
  session: Session,
  message: InboundMessage,
  text: string,
  { countTurn = false }: { countTurn?: boolean } = {},
): Promise<StoredPersonMessage | null> {
  const now = store.clock.now();
  const row = {
    sessionId: session.id,
    sourceId: `${message.transport}:${message.externalId}`,
    speaker: { kind: 'human' as const, name: message.author.name, id: message.author.id },
    role: 'user' as const,
    text,
    deliveryStatus: 'received' as const,
    externalIds: [message.externalId],
    externalUrl: message.url ?? null,
    ...(message.addressedTo?.length ? { addressedTo: message.addressedTo } : {}),
  };
  const stored = countTurn ? await store.messages.insertCountingTurn(row, now) : { ...(await store.messages.insert(row, now)), session: null };
  if (!stored.created) return null;
  // In a discussion the flood gate decides whether a message counts; elsewhere every message does.
  if (session.status !== 'active') await store.sessions.addUsage(session.id, { messages: 1, tokens: 0, costUsd: 0 }, now);
  store.events.publish({ type: 'message', message: stored.message });
  return { message: stored.message, counted: stored.session };
}
