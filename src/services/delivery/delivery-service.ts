import { whenReachable } from '../../core/database-unreachable.ts';
import type { JobRegistry } from '../jobs/job-types.ts';
import { withCustomSpan } from '@openai/agents';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { ClaimedJob, SuccessorClaim } from '../../repositories/jobs-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import { isPermanentFailure, isRoomGone } from '../../core/errors.ts';
import { currentTraceId } from '../current-trace.ts';
import { FINISHED_STATUSES, type ChatMessage, type Citation, type Session, type Speaker } from '../../core/domain.ts';
import type { CostSource } from '../../core/cost.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import type { EventBus, MessageAction, OutgoingFile, OutgoingMessage, ReplyButton, ReplyReference, Transport } from '../../core/ports.ts';
import type { DocumentKind } from '../../repositories/documents-repository.ts';
import { PostedMessages } from './posted-messages.ts';
import { previewRecord, type PreviewRows } from './preview-recorder.ts';
import { StreamDraft, type PreviewRecord } from './stream-draft.ts';
import type { TransportRegistry } from './transport-registry.ts';
import { clipText } from '../../core/text-clip.ts';
import { elsewhereRetryMs } from './room-elsewhere.ts';

/** The job kind of an outbox delivery. */
export const DELIVER_MESSAGE_JOB = 'deliver_message';

/** What a stored message may carry besides its text. */
export interface PostOptions {
  /** The messages it answers, as the caller holds them (at most five are shown). */
  replyTo?: readonly ChatMessage[];
  actions?: MessageAction[];
  /** Command buttons under the message (the closing's "Done n"). */
  buttons?: ReplyButton[];
  model?: string | null;
  usage?: { inputTokens: number; outputTokens: number; costUsd: number; costSource?: CostSource };
  traceId?: string | null;
  /** Counts toward the session's message limit (people and participants do; roles and notices do not). */
  countsAsMessage?: boolean;
  previewExternalId?: string | null;
  /** Kept in the transcript but never sent to the room. */
  internal?: boolean;
  /** An answer cut short (stop, deadline): flagged on the stored message. */
  interrupted?: boolean;
  /** Web pages the answer cites (the web search tool's, never links the model wrote). */
  citations?: Citation[];
  /** Web searches OpenRouter ran for the answer. */
  webSearches?: number;
  /** The session's documents to attach as files, read when the message is delivered (their newest versions). */
  attachDocuments?: DocumentKind[];
}

/** Options of the delivery service. */
export interface DeliveryServiceOptions {
  messages: MessagesRepository;
  sessions: SessionsRepository;
  transports: TransportRegistry;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  /** Whether a speaker's model is the demo simulator: its messages are marked as simulated. */
  simulated: (speaker: Speaker) => boolean;
  /** Screens a streaming preview like a final answer (secrets, mentions, masked links): what may be shown now. */
  sanitizePreview: (text: string) => string;
  /** Wakes the job worker so a delivery does not wait for the next poll (`queue`: the delivery's). */
  nudgeWorker: (queue: string) => void;
  /** Runs a queue's due jobs now (the job worker's `runQueue`). */
  runQueue: (queue: string) => Promise<void>;
  /** Where previews that outlive this process are recorded, with this process's worker instance id. */
  previews?: PreviewRows;
  /** A session's documents as files, for a message that attaches them (`attachDocuments`). */
  documentFiles?: (sessionId: string, kinds: DocumentKind[]) => Promise<OutgoingFile[]>;
}

/** A delivery is retried this often before it fails for good. */
const DELIVERY_RETRIES = 12;
/** Rooms of this many sessions are kept in memory (the oldest is forgotten first). */
const ROOMS_REMEMBERED = 10_000;

/** How every room's outbox queue begins. */
export const ROOM_QUEUE_PREFIX = 'room:';

/** The outbox queue of a room: its deliveries keep their order. */
export function roomQueue(session: Pick<Session, 'transport' | 'roomId'>): string {
  return `${ROOM_QUEUE_PREFIX}${session.transport}:${session.roomId}`;
}

async function markPosted(message: ChatMessage): Promise<void> {
  await withCustomSpan(async () => undefined, {
    data: { name: 'post_message', data: { messageId: message.id, speaker: message.speaker.name, sessionId: message.sessionId } },
  }).catch(() => undefined);
}

/** Stores every message before it is delivered, then delivers it through the per-room outbox queue. */
export class DeliveryService {
  private readonly rooms = new LRUCache<string, Pick<Session, 'transport' | 'roomId'>>({ max: ROOMS_REMEMBERED });
  private readonly posted = new PostedMessages();

  constructor(private readonly options: DeliveryServiceOptions) {}

  /** Stores a message and queues its delivery; returns the stored message. */
  async post(session: Session, speaker: Speaker, text: string, options: PostOptions = {}): Promise<ChatMessage> {
    const now = this.options.clock.now();
    // A message posted inside an agent's run (a Planner question, a Moderator redirect, the closing) belongs
    // to that run's trace: the message links to it, and a span in it links back to the message.
    const current = options.traceId ? null : currentTraceId();
    const usage = options.usage ?? { inputTokens: 0, outputTokens: 0, costUsd: 0 };
    // Stored, counted and queued in one statement: one round trip before the room can show it.
    const { message } = await this.options.messages.insertWithEffects(
      {
        sessionId: session.id,
        speaker,
        role: speaker.kind === 'participant' ? 'assistant' : speaker.kind === 'human' ? 'user' : 'system',
        text,
        model: options.model ?? null,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: usage.costUsd,
        ...(options.usage?.costSource ? { costSource: options.usage.costSource } : {}),
        replyTo: (options.replyTo ?? []).map((target) => target.id),
        traceId: options.traceId ?? current,
        deliveryStatus: options.internal ? 'internal' : 'pending',
        ...(options.interrupted ? { interrupted: true } : {}),
        ...(options.citations?.length ? { citations: options.citations } : {}),
        ...(options.webSearches ? { webSearches: options.webSearches } : {}),
      },
      {
        usage: { messages: options.countsAsMessage ? 1 : 0, tokens: usage.inputTokens + usage.outputTokens, costUsd: usage.costUsd },
        delivery: options.internal
          ? null
          : {
              kind: DELIVER_MESSAGE_JOB,
              queue: roomQueue(session),
              payload: {
                previewExternalId: options.previewExternalId ?? null,
                actions: options.actions ?? [],
                ...(options.buttons?.length ? { buttons: options.buttons } : {}),
                ...(options.attachDocuments?.length ? { documents: options.attachDocuments } : {}),
              },
              runAt: now,
              maxRetries: DELIVERY_RETRIES,
            },
      },
      now,
    );
    this.rememberRoom(session);
    if (!options.internal) this.posted.remember(message, options.replyTo ?? []);
    if (current) await markPosted(message);
    this.options.events.publish({ type: 'message', message });
    if (!options.internal) this.options.nudgeWorker(roomQueue(session));
    return message;
  }

  /**
   * Delivers the room's messages this process stored and has not begun to deliver, so what comes next (a streaming
   * preview) appears after them. Nothing waiting: no claim (one in flight holds the queue, and a claim would wait on it
   * for nothing); another process's messages keep their order in the queue all the same.
   */
  async flushRoom(session: Session): Promise<void> {
    if (!this.posted.waiting(session.id)) return;
    await this.options.runQueue(roomQueue(session));
  }

  /** Starts a streaming preview of an answer that is still being written. */
  startStream(session: Session, speaker: Speaker): StreamDraft | null {
    if (!this.options.transports.has(session.transport)) return null;
    const transport = this.options.transports.get(session.transport);
    const template = { speaker, replyTo: [], simulated: speaker.kind !== 'human' && this.options.simulated(speaker) };
    const onError = (error: unknown) =>
      this.options.logger.warn({ err: error, session: session.id }, 'streaming preview failed; the final message will still be delivered');
    return new StreamDraft(
      transport,
      session.roomId,
      template,
      this.options.clock,
      this.options.sanitizePreview,
      onError,
      this.previewRecorder(session, transport),
    );
  }

  /** Records each preview posted in a room that keeps it, so a process that dies mid-answer does not leave it there. */
  private previewRecorder(session: Session, transport: Transport): PreviewRecord | null {
    const previews = this.options.previews;
    return previews && transport.removePreview ? previewRecord(session, previews, this.options) : null;
  }

  /** Deliveries are this service's jobs: it registers their handler. */
  registerJobs(worker: JobRegistry): void {
    worker.register(DELIVER_MESSAGE_JOB, (job, _signal, successor) => this.deliver(job, successor));
  }

  /**
   * Runs one outbox delivery job: resumable chunk by chunk, so a retry never posts twice. With a `successor` claim, the
   * statement that records the delivery also claims the room's next delivery, for the worker to run at once.
   */
  async deliver(job: ClaimedJob, successor: SuccessorClaim | null = null): Promise<JobOutcome> {
    const messageId = Number(job.payload.messageId);
    // Taken on any run, so a later one never finds it: only a first run may send the message as it was stored.
    const stored = this.posted.take(messageId);
    const found = (job.firstRun ? stored : undefined) ?? (await this.options.messages.findWithReplyTargets(messageId));
    if (!found) return { status: 'failed', error: `message ${messageId} not found` };
    const { message, targets } = found;
    if (message.deliveryStatus === 'delivered') return { status: 'done' };
    const session = await this.roomOf(message.sessionId);
    if (!session) return { status: 'failed', error: `session ${message.sessionId} not found` };
    if (!this.options.transports.has(session.transport)) return { status: 'postpone', afterMs: 5000 };
    const transport = this.options.transports.get(session.transport);
    // Another process serves this room (its Discord shard holds the guild): leave the job to it, soon, not never.
    if (transport.handlesRoom && !(await transport.handlesRoom(session.roomId))) {
      return { status: 'postpone', afterMs: elsewhereRetryMs(this.options.clock.now().getTime() - message.createdAt.getTime()) };
    }
    const outgoing = this.toOutgoing(message, targets, (job.payload.actions as MessageAction[] | undefined) ?? []);
    const buttons = buttonsOf(job.payload.buttons);
    if (buttons.length > 0) outgoing.buttons = buttons;
    const documents = Array.isArray(job.payload.documents) ? (job.payload.documents as DocumentKind[]) : [];
    if (documents.length > 0 && this.options.documentFiles) outgoing.files = await this.options.documentFiles(message.sessionId, documents);
    let delivered;
    try {
      delivered = await transport.deliver(session.roomId, outgoing, {
        previewExternalId: typeof job.payload.previewExternalId === 'string' ? job.payload.previewExternalId : null,
        deliveredExternalIds: message.externalIds,
        // An earlier run may have posted a chunk and died (or lost its database) before recording it.
        resumedSince: job.firstRun ? null : message.createdAt,
        // Recorded even across a database outage: a job retried for want of it would post the message again.
        onChunkDelivered: (externalId, url) =>
          whenReachable(() => this.options.messages.appendExternalId(message.id, externalId, url), { clock: this.options.clock }),
      });
    } catch (error) {
      // A missing permission or a deleted room will not heal by retrying; everything else (outage, 5xx) may.
      if (!isPermanentFailure(error)) throw error;
      if (isRoomGone(error) && (await this.sessionEnded(message.sessionId))) {
        // The room closed and its session ended with it (a deleted or locked thread): nobody there to tell, no admin to alarm.
        this.options.logger.info({ session: message.sessionId, messageId }, 'not delivered: the room is gone and its session ended');
        return { status: 'done' };
      }
      return { status: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    // Delivered and the job done in one statement: a crash between the two can no longer leave a delivered
    // message's job to run again (it would find the message delivered and stop, but a round trip later).
    const next = await whenReachable(() => this.options.messages.markDelivered(message.id, job, this.options.clock.now(), delivered, successor), {
      clock: this.options.clock,
    });
    const shown: ChatMessage = {
      ...message,
      deliveryStatus: 'delivered',
      externalIds: delivered.externalIds,
      externalUrl: delivered.url ?? message.externalUrl,
    };
    this.posted.delivered(shown);
    this.options.events.publish({ type: 'message', message: shown });
    return next ? { status: 'settled', next } : { status: 'settled' };
  }

  private async sessionEnded(sessionId: string): Promise<boolean> {
    const session = await this.options.sessions.findById(sessionId);
    return session !== null && FINISHED_STATUSES.includes(session.status);
  }

  /** A session's transport and room never change: kept here, a delivery reads no session row. */
  private rememberRoom(session: Pick<Session, 'id' | 'transport' | 'roomId'>): void {
    this.rooms.set(session.id, { transport: session.transport, roomId: session.roomId });
  }

  private async roomOf(sessionId: string): Promise<Pick<Session, 'transport' | 'roomId'> | null> {
    const known = this.rooms.get(sessionId);
    if (known) return known;
    const session = await this.options.sessions.findById(sessionId);
    if (session) this.rememberRoom(session);
    return session;
  }

  private toOutgoing(message: ChatMessage, targets: ChatMessage[], actions: MessageAction[]): OutgoingMessage {
    const replyTo: ReplyReference[] = targets.slice(0, 5).map((target) => ({
      messageId: target.id,
      externalId: target.externalIds[0] ?? null,
      speakerName: target.speaker.name,
      excerpt: clipText(target.text.replace(/\s+/g, ' '), 90),
      url: target.externalUrl,
    }));
    return {
      speaker: message.speaker,
      content: message.text,
      replyTo,
      actions,
      simulated: message.speaker.kind !== 'human' && message.speaker.kind !== 'system' && this.options.simulated(message.speaker),
      ...(message.citations?.length ? { citations: message.citations } : {}),
    };
  }
}

/** The command buttons a delivery job carries (its payload is JSON: anything not shaped as one is left out). */
function buttonsOf(stored: unknown): ReplyButton[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown): ReplyButton[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { label, command, args, then } = entry as Record<string, unknown>;
    if (typeof label !== 'string' || typeof command !== 'string' || typeof args !== 'string') return [];
    return [{ label, command, args, ...(typeof then === 'string' ? { then } : {}) }];
  });
}
