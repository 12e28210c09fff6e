import type { Logger } from 'pino';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../clock.ts';
import { parseCommand } from '../commands/command-parser.ts';
import type { CommandService } from '../commands/command-service.ts';
import type { Coordinator } from '../coordinator/coordinator.ts';
import type { TransportRegistry } from '../delivery/transport-registry.ts';
import type { ChatMessage, Session } from '../domain.ts';
import { BrainstormError, describeForPerson } from '../errors.ts';
import type { IdGenerator } from '../ids.ts';
import type { CommandInvocation, EventBus, GatewayReply, InboundMessage, SessionGateway } from '../ports.ts';
import type { PlannerFlow } from './planner-flow.ts';

/** The input guardrail's answer for a person's message. */
export type ScreenVerdict = { verdict: 'ok' } | { verdict: 'blocked'; explanation: string };

/** What the gateway needs. */
export interface SessionGatewayOptions {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  transports: TransportRegistry;
  planner: PlannerFlow;
  coordinator: Coordinator;
  commands: () => CommandService;
  screen: (text: string, sessionId: string | null) => Promise<ScreenVerdict>;
  events: EventBus;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  onStored: (sessionId: string) => Promise<void>;
  /** A short summary of a session (its TLDR, record, or last messages) to seed an `!explore` sub-session. */
  summarize: (session: Session) => Promise<string>;
}

const reply = (content: string, isPrivate = false): GatewayReply => ({ content, private: isPrivate });

/**
 * The one entry point of every transport. A person's message is screened (a secret is never stored),
 * stored once (idempotent on its transport id) before anything acts on it, then routed by the session state.
 */
export class SessionGatewayService implements SessionGateway {
  constructor(private readonly options: SessionGatewayOptions) {}

  async handleMessage(message: InboundMessage): Promise<GatewayReply | null> {
    try {
      const text = message.content.trim();
      if (text === '') return null;
      const session = message.roomId ? await this.options.sessions.findByRoom(message.transport, message.roomId) : null;
      if (message.roomId && !session) return null;
      // Commands are screened too: a key pasted as a `!config` argument must not be stored or echoed.
      const verdict = await this.options.screen(text, session?.id ?? null);
      if (verdict.verdict === 'blocked') return reply(verdict.explanation);
      const command = parseCommand(text);
      if (command) return this.runCommand({ transport: message.transport, roomId: message.roomId, channelId: message.channelId, author: message.author, name: command.name, args: command.args });
      if (!session) return await this.startSession(message, text, null);
      return await this.receive(session, message, text);
    } catch (error) {
      return this.failure(error, message.transport);
    }
  }

  async runCommand(invocation: CommandInvocation): Promise<GatewayReply> {
    try {
      return await this.options.commands().run(invocation);
    } catch (error) {
      return this.failure(error, invocation.transport);
    }
  }

  /** Opens a room and a session for a topic, stores the topic as its first message, and starts planning. */
  async startSession(message: InboundMessage, topic: string, parent: Session | null, seed: string | null = null): Promise<GatewayReply | null> {
    const sourceId = `${message.transport}:${message.externalId}`;
    if (await this.options.messages.existsBySource(sourceId)) return null;
    const transport = this.options.transports.get(message.transport);
    const title = topic.split('\n')[0]?.slice(0, 90) ?? 'Brainstorm';
    const room = await transport.openRoom({ originChannelId: message.channelId, originMessageId: parent ? null : message.externalId, title: parent ? `Explore: ${title}` : title });
    const now = this.options.clock.now();
    const session = await this.options.sessions.create(
      {
        id: this.options.ids.next('ses'),
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
    await this.store(session, message, seed ? `${topic}\n\n${seed}` : topic);
    const seeded = seed ? ((await this.options.sessions.update(session.id, { plannerState: { ...session.plannerState, seed } }, now)) ?? session) : session;
    this.options.events.publish({ type: 'session', session: seeded });
    await this.options.planner.begin(seeded);
    this.options.logger.info({ session: session.id, transport: message.transport, parent: parent?.id }, 'session started');
    return parent ? reply(`Exploring “${title}” in a new ${message.transport === 'discord' ? 'thread' : 'room'}${room.url ? `: [${title}](${room.url})` : ''}.`) : null;
  }

  /** `!explore <topic>`: a linked sub-session in a new room, seeded with a summary of the parent. */
  async explore(parent: Session, topic: string, invocation: CommandInvocation): Promise<string> {
    const summary = await this.options.summarize(parent);
    const parentTitle = parent.topic.split('\n')[0]?.slice(0, 90) ?? 'the parent session';
    // The title stays the subtopic; the parent's summary seeds the plan and opens the transcript, with a link back.
    const seed = `Explored from ${parent.roomUrl ? `[“${parentTitle}”](${parent.roomUrl})` : `“${parentTitle}”`}. What it found so far:\n${summary}`;
    const started = await this.startSession(
      {
        transport: parent.transport,
        roomId: null,
        channelId: parent.originChannelId ?? invocation.channelId,
        externalId: this.options.ids.next('explore'),
        author: invocation.author,
        content: topic,
      },
      topic,
      parent,
      seed,
    );
    return started?.content ?? `Exploring “${topic}”.`;
  }

  private async receive(session: Session, message: InboundMessage, text: string): Promise<GatewayReply | null> {
    const stored = await this.store(session, message, text);
    if (!stored) return null;
    switch (session.status) {
      case 'planning':
      case 'awaiting_approval':
        await this.options.planner.onPersonMessage(session, stored);
        return session.status === 'awaiting_approval' ? reply('Got it — revising the plan with your comment.') : null;
      case 'active':
        await this.options.sessions.update(session.id, { aiRoundsSinceHuman: 0 }, this.options.clock.now());
        this.options.coordinator.onHumanMessage(session, stored);
        await this.options.onStored(session.id);
        return null;
      case 'paused':
        return reply('Noted — the discussion is paused, so nobody will answer until `!continue`.');
      default:
        return reply(`This session has ended (${session.status}). Post a new topic in the channel to start another.`);
    }
  }

  private async store(session: Session, message: InboundMessage, text: string): Promise<ChatMessage | null> {
    const now = this.options.clock.now();
    const { message: stored, created } = await this.options.messages.insert(
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
    await this.options.sessions.addUsage(session.id, { messages: 1, tokens: 0, costUsd: 0 }, now);
    this.options.events.publish({ type: 'message', message: stored });
    return stored;
  }

  private failure(error: unknown, transport: string): GatewayReply {
    if (!BrainstormError.isInstance(error)) this.options.logger.error({ err: error, transport }, 'gateway failed to handle an event');
    return reply(describeForPerson(error), true);
  }
}
