import { hasVisibleText } from '../../agents/guardrails/scan-normalizer.ts';
import type { Logger } from 'pino';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { InboundRepository } from '../../repositories/inbound-repository.ts';
import { parseCommand } from '../commands/command-parser.ts';
import type { CommandService } from '../commands/command-service.ts';
import type { TransportRegistry } from '../delivery/transport-registry.ts';
import type { Author, ChatMessage, Session } from '../../core/domain.ts';
import { isDatabaseUnreachable } from '../../core/database-unreachable.ts';
import { BrainstormError, describeForPerson } from '../../core/errors.ts';
import type {
  CatchUpPoint,
  CatchUpScope,
  CommandInvocation,
  EventBus,
  GatewayReply,
  InboundMessage,
  MessageRevision,
  RoomClosure,
  SessionGateway,
} from '../../core/ports.ts';
import type { TurnTaking } from '../../core/service-ports.ts';
import type { FloodGate } from '../sessions/flood-gate.ts';
import { storePersonMessage, type StoredPersonMessage } from '../sessions/person-messages.ts';
import { isApprovalPhrase } from '../sessions/approval-phrases.ts';
import type { PlannerFlow } from '../sessions/planner-flow.ts';
import type { PersonRevisions } from '../sessions/person-revisions.ts';
import type { RoomClosures } from '../sessions/room-closures.ts';
import type { Screen, ScreenSubject, SessionStarter } from '../sessions/session-starter.ts';
import { retractSecret } from './secret-retraction.ts';
import { UnfinishedClaims } from './unfinished-claims.ts';
import { RecentDeletions } from './recent-deletions.ts';
import { findCatchUpPoints } from './catch-up-points.ts';
import { answeredSincePrevious } from './answered-since.ts';

/** What a person hears when their message could not be stored: it is not kept, so it must be sent again. */
const NOT_STORED = 'I could not save that message (our storage did not answer), so nobody will answer it. Please send it again in a moment.';
/** What a person hears when the database is unreachable (a transport that can hold the message says so instead). */
const DATABASE_AWAY = 'I cannot reach my database right now (a restart or a network problem), so I could not take that in. Please try again in a minute.';

/** What the gateway needs. */
export interface SessionGatewayOptions {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  transports: TransportRegistry;
  planner: Pick<PlannerFlow, 'onPersonMessage' | 'approve'>;
  /** Answers people in a discussion (the coordinator). */
  turns: TurnTaking;
  commands: Pick<CommandService, 'run'>;
  /** Opens sessions for topics posted in a brainstorm channel. */
  starter: Pick<SessionStarter, 'start'>;
  /** The one screen for every text a person controls, run before anything stores, shows or sends it. */
  screen: Screen;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  onStored: (sessionId: string) => Promise<void>;
  /** Paces each person's messages in a discussion (a flood is folded into one turn and counted once). */
  floodGate: Pick<FloodGate, 'pace' | 'admitIfCertain' | 'settleAdmission'>;
  /** Claims on people's messages and read cursors (catch-up after a restart; several processes on one database). */
  inbound: Pick<InboundRepository, 'claimAndAdvance' | 'cursors' | 'unfinished' | 'settle'>;
  /** This process's worker instance id: whose claims on people's messages are its own. */
  claimant: string;
  /** Ends the sessions of a room that was deleted or locked. */
  closures: Pick<RoomClosures, 'close'>;
  /** People's edits and deletions of what they posted. */
  revisions: Pick<PersonRevisions, 'storedFor' | 'edit' | 'remove'>;
}

const reply = (content: string, isPrivate = false): GatewayReply => ({ content, private: isPrivate });

/** How far a message's handling went: claimed by this process, and stored (or found stored). */
type IntakeProgress = { claimed: boolean; stored: boolean };

/**
 * The one entry point of every transport. A person's message is screened (a secret is never stored),
 * stored once (idempotent on its transport id) before anything acts on it, then routed by the session state.
 */
export class SessionGatewayService implements SessionGateway {
  private readonly unfinished = new UnfinishedClaims();
  private readonly deletions = new RecentDeletions();

  constructor(private readonly options: SessionGatewayOptions) {}

  async handleMessage(message: InboundMessage): Promise<GatewayReply | null> {
    const progress: IntakeProgress = { claimed: false, stored: false };
    try {
      const answer = await this.take(message, progress);
      await this.finish(message, progress);
      return answer;
    } catch (error) {
      // Cut short by the database: the transport holds the message and hands it over again, to a claim of our own.
      if (isDatabaseUnreachable(error)) this.unfinished.add(message.transport, message.externalId);
      else await this.finish(message, progress);
      return this.failure(error, message.transport);
    }
  }

  /**
   * A message whose handling ended is no longer one cut short. Claimed and not stored (a command, a refusal, a failure),
   * it is settled: a catch-up after this process is gone must not act on it again. A stored message is settled by its
   * row. Unsettled (the database away meanwhile), a command could run twice after a crash: never lost.
   */
  private async finish(message: InboundMessage, progress: IntakeProgress): Promise<void> {
    this.unfinished.delete(message.transport, message.externalId);
    if (!progress.claimed || progress.stored) return;
    await this.options.inbound.settle(message.transport, message.externalId).catch((error: unknown) => {
      this.options.logger.warn({ err: error, externalId: message.externalId }, "could not mark a person's message handled");
    });
  }

  private async take(message: InboundMessage, progress: IntakeProgress): Promise<GatewayReply | null> {
    const text = message.content.trim();
    if (text === '') return null;
    // Claimed before anything acts on it: another process, or a catch-up reading it again, leaves it alone. The room's
    // session is read meanwhile (reading acts on nothing): on a Postgres server the two round trips overlap.
    const channelId = message.roomId ?? message.channelId;
    const claimant = { id: this.options.claimant, again: this.unfinished.has(message.transport, message.externalId) };
    const [claimed, session] = await Promise.all([
      this.options.inbound.claimAndAdvance(message.transport, channelId, message.externalId, this.options.clock.now(), claimant),
      message.roomId ? this.options.sessions.findByRoom(message.transport, message.roomId) : null,
    ]);
    if (!claimed) return null;
    progress.claimed = true;
    // Zero-width or format characters alone look empty to people but not to models: refuse, store nothing.
    if (!hasVisibleText(text)) return reply('That message has no visible text (only invisible characters), so it was not posted to the session.', true);
    const command = parseCommand(text);
    // A thread without a session is read only for `!brainstorm`, which starts one from the talk there.
    if (message.roomId && !session && command?.name !== 'brainstorm') return null;
    // Commands are screened too: a key pasted as a `!config` argument must not be stored or echoed.
    const refusal = await this.screenPerson(message.author, text, session?.id ?? null);
    if (refusal) return { ...(await this.refused(refusal, message)), notPosted: true };
    if (command)
      return this.execute({
        transport: message.transport,
        roomId: message.roomId,
        channelId: message.channelId,
        author: message.author,
        name: command.name,
        args: command.args,
      });
    if (!session) {
      const started = await this.options.starter.start(message, text);
      progress.stored = true;
      return started;
    }
    return await this.receive(session, message, text, progress);
  }

  /** A slash command, a button or a console command: its arguments and the sender's name are screened first. */
  async runCommand(invocation: CommandInvocation): Promise<GatewayReply> {
    try {
      const session = invocation.roomId ? await this.options.sessions.findByRoom(invocation.transport, invocation.roomId) : null;
      const refusal = await this.screenPerson(invocation.author, invocation.args.trim(), session?.id ?? null, 'command_args');
      if (refusal) return reply(refusal.explanation, true);
    } catch (error) {
      return this.failure(error, invocation.transport);
    }
    return this.execute(invocation);
  }

  catchUpPoints(transport: string, brainstormChannelIds: readonly string[], scope?: CatchUpScope): Promise<CatchUpPoint[]> {
    return findCatchUpPoints(this.options, transport, brainstormChannelIds, scope);
  }

  /**
   * An edit is screened like a new message (a key pasted in an edit is refused and retracted, and the stored text
   * stays as it was); one that turns the message into a command, or into nothing visible, is not applied.
   */
  async messageEdited(message: InboundMessage): Promise<GatewayReply | null> {
    try {
      const text = message.content.trim();
      const stored = await this.options.revisions.storedFor({ ...message, authorId: message.author.id });
      if (!stored || stored.text === text || !hasVisibleText(text) || parseCommand(text)) return null;
      const refusal = await this.screenPerson(message.author, text, stored.sessionId);
      if (refusal) return this.refused(refusal, message, true);
      await this.options.revisions.edit(stored, text);
      return null;
    } catch (error) {
      return this.failure(error, message.transport);
    }
  }

  async messageDeleted(revision: MessageRevision): Promise<void> {
    this.deletions.add(revision.transport, revision.externalId);
    await this.options.revisions.remove(revision);
  }

  async roomClosed(closure: RoomClosure): Promise<string[]> {
    return this.options.closures.close(closure);
  }

  /** Screens a text before a transport publishes it for the person (`/brainstorm start` shows the topic). */
  async screen(request: { author: Author; text: string; roomId: string | null }): Promise<GatewayReply | null> {
    const refusal = await this.screenPerson(request.author, request.text.trim(), null);
    return refusal ? reply(refusal.explanation, true) : null;
  }

  private async execute(invocation: CommandInvocation): Promise<GatewayReply> {
    try {
      return await this.options.commands.run(invocation);
    } catch (error) {
      return this.failure(error, invocation.transport);
    }
  }

  /** The display name first (it travels with every message), then the text; the first refusal wins. */
  private async screenPerson(
    author: Author,
    text: string,
    sessionId: string | null,
    subject: ScreenSubject = 'message',
  ): Promise<{ explanation: string; reason?: string; subject: ScreenSubject } | null> {
    const name = await this.options.screen(author.name, sessionId, 'display_name');
    if (name.verdict === 'blocked') return { ...name, subject: 'display_name' };
    if (text === '') return null;
    const verdict = await this.options.screen(text, sessionId, subject);
    return verdict.verdict === 'blocked' ? { ...verdict, subject } : null;
  }

  /** The reply to a refused message; a secret in it is also taken down where it was posted. */
  private async refused(
    refusal: { explanation: string; reason?: string; subject: ScreenSubject },
    message: InboundMessage,
    isPrivate = false,
  ): Promise<GatewayReply> {
    const secret = refusal.subject === 'message' && refusal.reason === 'secret';
    return reply(secret ? refusal.explanation + (await retractSecret(this.options.transports, this.options.logger, message)) : refusal.explanation, isPrivate);
  }

  private async receive(session: Session, message: InboundMessage, text: string, progress: IntakeProgress): Promise<GatewayReply | null> {
    // Most messages in a discussion are paced without the history: then they are stored and counted in one statement.
    const countTurn = session.status === 'active' && this.options.floodGate.admitIfCertain(session.id, message.author.id);
    const stored = await storePersonMessage(this.options, session, message, text, { countTurn }).catch((error: unknown) => {
      if (countTurn) this.options.floodGate.settleAdmission(session.id, message.author.id, false);
      if (isDatabaseUnreachable(error)) throw error;
      // The usual "nothing you said was lost" would not be true here: say so, and what to do.
      this.options.logger.error({ err: error, session: session.id }, "could not store a person's message");
      throw new BrainstormError('service_unavailable', NOT_STORED, { cause: error });
    });
    progress.stored = true;
    if (countTurn) this.options.floodGate.settleAdmission(session.id, message.author.id, stored !== null);
    if (!stored || (await this.deletions.removeIfDeleted(message, this.options.revisions))) return null;
    switch (session.status) {
      case 'planning':
      case 'awaiting_approval':
        // "Looks good, go ahead" approves, as `!approve` would: no revision nobody asked for.
        if (session.status === 'awaiting_approval' && isApprovalPhrase(text))
          return reply(`Taken as \`!approve\`: ${await this.options.planner.approve(session, message.author)}`);
        await this.options.planner.onPersonMessage(session, stored.message);
        return session.status === 'awaiting_approval' ? reply('Got it — revising the plan with your comment.') : null;
      case 'active':
        return countTurn ? this.startTurn(session, stored) : this.discuss(session, stored.message, message.author);
      case 'paused':
        return reply('Noted — the discussion is paused, so nobody will answer until `!continue`.');
      default:
        return reply(`This session has ended (${session.status}). Post a new topic in the channel to start another.`);
    }
  }

  /** A person's message in a discussion, paced once stored: it starts the answers, unless it is folded into a turn. */
  private async discuss(session: Session, stored: ChatMessage, author: Author): Promise<GatewayReply | null> {
    const decision = await this.options.floodGate.pace(session.id, author.id, () =>
      answeredSincePrevious(this.options.messages, session.id, stored, author.id),
    );
    if (decision !== 'counted') {
      // Folded: stored, counted nothing, and read by the round already coming; it starts one only when none comes
      // (the round it followed ended before reading it), so a person is never left unanswered.
      this.options.turns.onHumanMessage(session, stored, { folded: true });
      await this.options.onStored(session.id);
      return decision === 'folded_first'
        ? reply(`${author.name}, you are writing faster than the room can answer: I am taking your next messages together, in one turn.`, true)
        : null;
    }
    const counted = await this.options.sessions.countHumanTurn(session.id, this.options.clock.now());
    return this.startTurn(session, { message: stored, counted });
  }

  /** A counted message starts the answers; the session as its count left it saves the coordinator a read. */
  private async startTurn(session: Session, { message, counted }: StoredPersonMessage): Promise<null> {
    if (counted) this.options.turns.onHumanMessage(counted, message, { counted: true });
    else this.options.turns.onHumanMessage(session, message);
    await this.options.onStored(session.id);
    return null;
  }

  /**
   * The reply for a failure. An unreachable database is thrown on, typed, to the transport: the message was not taken
   * in, and a transport that can hold it (Discord) or send it again (the console's outbox, on a 503) loses nothing.
   */
  private failure(error: unknown, transport: string): GatewayReply {
    if (isDatabaseUnreachable(error)) throw new BrainstormError('service_unavailable', DATABASE_AWAY, { cause: error });
    if (!BrainstormError.isInstance(error)) this.options.logger.error({ err: error, transport }, 'gateway failed to handle an event');
    return reply(describeForPerson(error), true);
  }
}
