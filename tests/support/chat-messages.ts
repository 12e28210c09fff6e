import type { ChatMessage } from '../../src/core/domain.ts';

/** A delivered message as the store returns it; `overrides` sets what a test is about. */
export function chatMessage(overrides: Partial<ChatMessage> & Pick<ChatMessage, 'id' | 'speaker' | 'text'>): ChatMessage {
  return {
    number: overrides.id,
    sessionId: 's',
    role: 'assistant',
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    replyTo: [],
    traceId: null,
    deliveryStatus: 'delivered',
    externalIds: [],
    externalUrl: null,
    createdAt: new Date(0),
    ...overrides,
  };
}
