/**
 * Starting a session, from wherever a person asks: a topic posted in a brainstorm channel, `!explore` (seeded with
 * the parent's summary) and `!brainstorm` (the conversation where it was said). The gateway and the commands share it.
 */
import type { Logger } from 'pino';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { Session, StartingConversation } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { IdGenerator } from '../../core/ids.ts';
import type { CommandInvocation, EventBus, GatewayReply, InboundMessage } from '../../core/ports.ts';
import type { TransportRegistry } from '../delivery/transport-registry.ts';
import { storePersonMessage } from './person-messages.ts';
import type { PlannerFlow } from './planner-flow.ts';
import { splitPresetOption, type PresetService } from './session-presets.ts';
import { readStartingConversation, startedFromConversation, type ConversationBounds } from './starting-conversation.ts';

/** The input guardrail's answer for a text a person controls. */
export type ScreenVerdict = { verdict: 'ok' } | { verdict: 'blocked'; explanation: string; reason?: string };

/** What a text a person controls is: a message or topic, their display name, or a command's arguments. */
export type ScreenSubject = 'message' | 'display_name' | 'command_args';

/** Screens a text a person controls (the input guardrail). */
export type Screen = (text: string, sessionId: string | null, subject: ScreenSubject) => Promise<ScreenVerdict>;

/** What the starter needs. */
export interface SessionStarterOptions {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  transports: TransportRegistry;
  planner: Pick<PlannerFlow, 'begin'>;
  presets: PresetService;
  screen: Screen;
  /** A short summary of a session (its TLDR, record, or last messages) to seed an `!explore` sub-session. */
  summarize: (session: Session) => Promise<string>;
  /** How much of a conversation `!brainstorm` reads. */
  startContext: () => ConversationBounds;
  events: EventBus;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

const reply = (content: string): GatewayReply => ({ content, private: false });

/** Opens rooms and sessions and hands them to the Planner. */
export class SessionStarter {
  constructor(private readonly options: SessionStarterOptions) {}

  /**
   * Opens a room and a session for a topic, stores the topic as its first message, and starts planning. A topic's
   * `preset:<name>` chooses the preset; a conversation (`!brainstorm`) opens the room on a message of its own.
   */
  async start(
    message: InboundMessage,
    rawTopic: string,
    parent: Session | null = null,
    seed: string | null = null,
    conversation: StartingConversation | null = null,
  ): Promise<GatewayReply | null> {
    const o = this.options;
    if (await o.messages.existsBySource(`${message.transport}:${message.externalId}`)) return null;
    const { topic, preset: presetName } = splitPresetOption(rawTopic);
    const preset = presetName ? o.presets.require(presetName) : null;
    const title = topic.split('\n')[0]?.slice(0, 90) || 'Brainstorm';
    const room = await o.transports.get(message.transport).openRoom({
      originChannelId: message.channelId,
      originMessageId: parent || conversation ? null : message.externalId,
      title: parent ? `Explore: ${title}` : title,
    });
    const now = o.clock.now();
    const session = await o.sessions.create(
      {
        id: o.ids.next('ses'),
        parentId: parent?.id ?? null,
        transport: message.transport,
        roomId: room.roomId,
        roomUrl: room.url,
        originChannelId: message.channelId,
        originMessageId: parent ? null : message.externalId,
        topic,
        status: 'planning',
        createdBy: { id: message.author.id, name: message.author.name },
      },
      now,
    );
    await storePersonMessage(o, session, message, seed ? `${topic}\n\n${seed}` : topic);
    const plannerState = {
      ...session.plannerState,
      ...(seed ? { seed } : {}),
      ...(preset ? { preset: { name: preset.name, by: message.author.name } } : {}),
      ...(conversation ? { conversation } : {}),
    };
    const seeded = (await o.sessions.update(session.id, { plannerState }, now)) ?? session;
    o.events.publish({ type: 'session', session: seeded });
    await o.planner.begin(seeded);
    o.logger.info({ session: session.id, transport: message.transport, parent: parent?.id }, 'session started');
    return parent
      ? reply(`Exploring “${title}” in a new ${message.transport === 'discord' ? 'thread' : 'room'}${room.url ? `: [${title}](${room.url})` : ''}.`)
      : null;
  }

  /** `!explore <topic>`: a linked sub-session in a new room, seeded with a summary of the parent. */
  async explore(parent: Session, topic: string, invocation: CommandInvocation): Promise<string> {
    // The subtopic becomes a topic the Planner reads: it passes the whole message screen, not only the secret check.
    await this.refuseBlocked(topic, parent.id);
    const summary = await this.options.summarize(parent);
    const parentTitle = parent.topic.split('\n')[0]?.slice(0, 90) ?? 'the parent session';
    // The title stays the subtopic; the parent's summary seeds the plan and opens the transcript, with a link back.
    const seed = `Explored from ${parent.roomUrl ? `[“${parentTitle}”](${parent.roomUrl})` : `“${parentTitle}”`}. What it found so far:\n${summary}`;
    const message: InboundMessage = {
      transport: parent.transport,
      roomId: null,
      channelId: parent.originChannelId ?? invocation.channelId,
      externalId: this.options.ids.next('explore'),
      author: invocation.author,
      content: topic,
    };
    const started = await this.start(message, topic, parent, seed, null);
    return started?.content ?? `Exploring “${topic}”.`;
  }

  /**
   * `!brainstorm <topic>` (and `/brainstorm start` inside a thread or another channel): a new session whose Planner
   * reads the last messages of the place it was started in. Its room opens in the brainstorm channel.
   */
  async startFromConversation(topic: string, invocation: CommandInvocation): Promise<string> {
    const o = this.options;
    await this.refuseBlocked(topic, null);
    const here = invocation.roomId ? await o.sessions.findByRoom(invocation.transport, invocation.roomId) : null;
    // In a brainstorm channel itself every message is a topic of its own: there is no conversation to read.
    const conversation = !invocation.roomId
      ? null
      : await readStartingConversation(
          {
            messages: o.messages,
            screen: async (text, subject) => (await o.screen(text, here?.id ?? null, subject)).verdict === 'ok',
            bounds: o.startContext,
          },
          { transport: o.transports.has(invocation.transport) ? o.transports.get(invocation.transport) : null, channelId: invocation.roomId, session: here },
        );
    const { transport, author } = invocation;
    const channelId = here?.originChannelId ?? invocation.channelId;
    const message: InboundMessage = { transport, roomId: null, channelId, externalId: o.ids.next('conversation'), author, content: topic };
    const started = await this.start(message, topic, null, null, conversation);
    return started?.content ?? startedFromConversation(conversation, transport);
  }

  private async refuseBlocked(topic: string, sessionId: string | null): Promise<void> {
    const verdict = await this.options.screen(topic, sessionId, 'message');
    if (verdict.verdict === 'blocked') throw new BrainstormError('guardrail_tripped', verdict.explanation);
  }
}
