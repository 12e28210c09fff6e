/** Sessions started from another place: `!explore` (seeded with the parent's summary) and `!brainstorm` (a conversation). */
import type { Session, StartingConversation } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { CommandInvocation, GatewayReply, InboundMessage } from '../../core/ports.ts';
import type { SessionGatewayOptions } from './session-gateway.ts';
import { readStartingConversation, startedFromConversation } from './starting-conversation.ts';

/** What these starts need: the gateway's parts and its `startSession`. */
export type SessionStarts = Pick<SessionGatewayOptions, 'screen' | 'summarize' | 'sessions' | 'messages' | 'transports' | 'ids' | 'startContext'> & {
  start(
    message: InboundMessage,
    topic: string,
    parent: Session | null,
    seed: string | null,
    conversation: StartingConversation | null,
  ): Promise<GatewayReply | null>;
};

/** `!explore <topic>`: a linked sub-session in a new room, seeded with a summary of the parent. */
export async function exploreFrom(deps: SessionStarts, parent: Session, topic: string, invocation: CommandInvocation): Promise<string> {
  // The subtopic becomes a topic the Planner reads: it passes the whole message screen, not only the secret check.
  const verdict = await deps.screen(topic, parent.id, 'message');
  if (verdict.verdict === 'blocked') throw new BrainstormError('guardrail_tripped', verdict.explanation);
  const summary = await deps.summarize(parent);
  const parentTitle = parent.topic.split('\n')[0]?.slice(0, 90) ?? 'the parent session';
  // The title stays the subtopic; the parent's summary seeds the plan and opens the transcript, with a link back.
  const seed = `Explored from ${parent.roomUrl ? `[“${parentTitle}”](${parent.roomUrl})` : `“${parentTitle}”`}. What it found so far:\n${summary}`;
  const message: InboundMessage = {
    transport: parent.transport,
    roomId: null,
    channelId: parent.originChannelId ?? invocation.channelId,
    externalId: deps.ids.next('explore'),
    author: invocation.author,
    content: topic,
  };
  const started = await deps.start(message, topic, parent, seed, null);
  return started?.content ?? `Exploring “${topic}”.`;
}

/**
 * `!brainstorm <topic>` (and `/brainstorm start` inside a thread or another channel): a new session whose Planner
 * reads the last messages of the place it was started in. Its room opens in the brainstorm channel.
 */
export async function startFromConversation(deps: SessionStarts, topic: string, invocation: CommandInvocation): Promise<string> {
  const verdict = await deps.screen(topic, null, 'message');
  if (verdict.verdict === 'blocked') throw new BrainstormError('guardrail_tripped', verdict.explanation);
  const here = invocation.roomId ? await deps.sessions.findByRoom(invocation.transport, invocation.roomId) : null;
  // In a brainstorm channel itself every message is a topic of its own: there is no conversation to read.
  const conversation = !invocation.roomId
    ? null
    : await readStartingConversation(
        {
          messages: deps.messages,
          screen: async (text, subject) => (await deps.screen(text, here?.id ?? null, subject)).verdict === 'ok',
          bounds: deps.startContext,
        },
        {
          transport: deps.transports.has(invocation.transport) ? deps.transports.get(invocation.transport) : null,
          channelId: invocation.roomId,
          session: here,
        },
      );
  const { transport, author } = invocation;
  const channelId = here?.originChannelId ?? invocation.channelId;
  const message: InboundMessage = { transport, roomId: null, channelId, externalId: deps.ids.next('conversation'), author, content: topic };
  const started = await deps.start(message, topic, null, null, conversation);
  return started?.content ?? startedFromConversation(conversation, transport);
}
