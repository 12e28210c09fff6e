/**
 * Ports: the interfaces the services need from the outside world (transports) and the interfaces the
 * agents' tools need from the services. Types only; no implementation lives here.
 */
import type { Author, ChatMessage, Citation, Session, SessionPlan, Speaker } from './domain.ts';
import type { TldrOutput } from './schemas.ts';

// ---------------------------------------------------------------- transports (bot/, web/, tests)

/** A message this process wants to show in a room. */
export interface OutgoingMessage {
  speaker: Speaker;
  content: string;
  /** Earlier messages this one answers (at most 5); webhooks cannot reply, so transports quote/link them. */
  replyTo: ReplyReference[];
  /** Buttons to attach (the plan message gets an approve button). */
  actions?: MessageAction[];
  /** Command buttons under its last part (the closing's and the reminder's "Done n"), where the transport has them. */
  buttons?: ReplyButton[];
  /** True when the text came from the demo simulator; transports mark it plainly. */
  simulated?: boolean;
  /** Web pages the answer cites (from the web search tool): transports show them as links under the text. */
  citations?: Citation[];
  /** Files attached to the message (a session's documents as markdown), with its last part. */
  files?: OutgoingFile[];
}

/** A text file a message carries. */
export interface OutgoingFile {
  name: string;
  content: string;
}

/** A reference from a message to one it answers. */
export interface ReplyReference {
  messageId: number;
  externalId: string | null;
  speakerName: string;
  excerpt: string;
  url: string | null;
}

/** An interactive control attached to a message. */
export type MessageAction = 'approve_plan';

/** Chunks already delivered for one message, so a retried delivery never posts twice. */
export interface DeliveryProgress {
  /** A message posted while streaming that the final text replaces (edited in place). */
  previewExternalId: string | null;
  /** External ids of the chunks already delivered, in order. */
  deliveredExternalIds: string[];
  /**
   * Called after each chunk that has another after it, before that one is sent, so progress survives a crash. The
   * last chunk's id is returned instead, and stored with the message marked delivered: one round trip less for
   * every message, and no window between "last chunk recorded" and "delivered" at all.
   */
  onChunkDelivered(externalId: string, url: string | null): Promise<void>;
  /**
   * Set when an earlier run of this delivery may have posted a chunk it could not record (its process killed, or its
   * database away, between the post and the record): the room is read back from this time before a chunk is posted
   * again, and a chunk found there is taken instead of being posted twice.
   */
  resumedSince?: Date | null;
}

/** What a transport reports after delivering a message. */
export interface DeliveredMessage {
  externalIds: string[];
  url: string | null;
}

/** A room transport: Discord threads, the web console's local channel, or the in-memory test transport. */
export interface Transport {
  readonly name: string;
  /** Opens a room (a thread on the topic message, a local room) for a new session. */
  openRoom(request: { originChannelId: string; originMessageId: string | null; title: string }): Promise<{ roomId: string; url: string | null }>;
  /** Delivers a whole message (splitting it as the transport must), resuming from `progress`. */
  deliver(roomId: string, message: OutgoingMessage, progress: DeliveryProgress): Promise<DeliveredMessage>;
  /** Posts a streaming preview of a message that is still being written; returns its external id. */
  postPreview(roomId: string, message: OutgoingMessage): Promise<string>;
  /** Replaces the text of a preview while it streams. */
  editPreview(roomId: string, externalId: string, message: OutgoingMessage): Promise<void>;
  /**
   * The preview's stream is over: resolves once no edit of it can reach the room any more, so that none lands after
   * its final text, which another process may deliver. Absent where edits are not held back (they land at once).
   */
  settlePreview?(roomId: string, externalId: string): Promise<void>;
  /**
   * Removes a preview whose answer will never come (its process died mid-answer, or handed the session over); a preview
   * already gone counts as removed. Present where previews outlive the process that posted them (Discord); absent where they do not.
   */
  removePreview?(roomId: string, externalId: string): Promise<void>;
  /**
   * Removes the half-written previews of ours in a room that no process is writing: left by a process that died before
   * it could record them (its database away). Run when a session's lease is taken; returns how many it removed.
   */
  removeStrayPreviews?(roomId: string): Promise<number>;
  /**
   * Forgets a preview held in this process's memory (the local channel) whose answer will not come here: the session
   * went to another process, which answers again. Absent where previews live in the room itself (`removePreview`).
   */
  discardPreview?(roomId: string, externalId: string): void;
  /** Shows that a speaker is thinking. */
  sendTyping(roomId: string): Promise<void>;
  /**
   * Removes a person's message that everyone can read (a refused secret) from a room or channel: `forbidden`
   * when the transport may not (Discord without Manage Messages). Absent where refused messages are never shown.
   */
  deleteMessage?(channelId: string, externalId: string): Promise<'deleted' | 'forbidden'>;
  /** Whether this process may run the room's session (Discord: the room's guild is on one of our shards). Absent: yes. */
  handlesRoom?(roomId: string): Promise<boolean>;
  /**
   * The last people's messages of a channel or thread, oldest first, named by display name with mentions resolved
   * to names (a session started there reads them). Absent where only session rooms exist (their messages are stored).
   */
  recentMessages?(channelId: string, limit: number): Promise<ConversationLine[]>;
}

/** One message of a conversation a session starts from. */
export interface ConversationLine {
  speakerName: string;
  text: string;
}

/** A person's message as a transport received it. */
export interface InboundMessage {
  transport: string;
  /** The session's room, or null when posted in a brainstorm channel (a new topic). */
  roomId: string | null;
  channelId: string;
  externalId: string;
  author: Author;
  content: string;
  url?: string | null;
  /** The participants the person answered directly (a Discord reply to one of their messages). */
  addressedTo?: string[];
}

/** A command invoked by a slash command, a button, or parsed from a `!` message. */
export interface CommandInvocation {
  transport: string;
  roomId: string | null;
  channelId: string;
  author: Author;
  name: string;
  args: string;
}

/** The answer a transport shows to the person who acted (a command reply or an error). */
export interface GatewayReply {
  content: string;
  /** Only the person who acted should see it (interactions can do that). */
  private: boolean;
  /** Buttons under the reply (`!steps`: one per open step), where the transport has them; the text says the same. */
  buttons?: ReplyButton[];
  /**
   * The person's message was refused (too long, a secret, a mass mention...): nothing of it was stored, shown or sent,
   * so a client that holds its text gives it back to them to change (the console puts it back in its message box).
   */
  notPosted?: boolean;
}

/** A button that runs a command for whoever presses it (permissions and states as if they typed it). */
export interface ReplyButton {
  label: string;
  command: string;
  /** No colon: transports pack command, arguments and `then` into one identifier. */
  args: string;
  /** A command whose answer then replaces the message the button is on (`steps`: the list, with the box ticked). */
  then?: string;
}

/** What a service may add to a post in the room besides its text. */
export interface RoomPostExtras {
  buttons?: ReplyButton[];
}

/** What transports call: the one entry point into the services. */
export interface SessionGateway {
  /** A person said something; commands (`!x`) inside it are run. Returns a reply to show, if any. */
  handleMessage(message: InboundMessage): Promise<GatewayReply | null>;
  /** A slash command or button. */
  runCommand(invocation: CommandInvocation): Promise<GatewayReply>;
  /** Screens a text a person is about to publish through the bot (a `/brainstorm start` topic): a refusal, or null. */
  screen(request: { author: Author; text: string; roomId: string | null }): Promise<GatewayReply | null>;
  /**
   * Where a transport resumes reading after a restart or a reconnect that was not a resume: every live session's
   * room and every given brainstorm channel, each after the last message seen there.
   */
  catchUpPoints?(transport: string, brainstormChannelIds: readonly string[], scope?: CatchUpScope): Promise<CatchUpPoint[]>;
  /** A person edited a message they posted: the stored one follows (screened first). Returns a reply to show, if any. */
  messageEdited?(message: InboundMessage): Promise<GatewayReply | null>;
  /** A person's message was deleted where it was posted: it is removed from the session. */
  messageDeleted?(revision: MessageRevision): Promise<void>;
  /** A room (or a channel and every room in it) can no longer hold a discussion: its live sessions end. */
  roomClosed?(closure: RoomClosure): Promise<string[]>;
}

/** A message changed where it was posted, named by its transport and its id there. */
export interface MessageRevision {
  transport: string;
  externalId: string;
}

/** A room that was deleted or locked where it lives, or a channel deleted with every room opened from it. */
export interface RoomClosure {
  transport: string;
  /** The room's id; with `scope: 'channel'`, also the channel the rooms were opened from. */
  channelId: string;
  scope: 'room' | 'channel';
  /** Why, as the record and the closing say it ("the Discord thread was deleted"). */
  reason: string;
}

/** Which channels a catch-up reads: every one (a start, a reconnect), or only those a process that is gone left unfinished. */
export interface CatchUpScope {
  unfinishedOnly?: boolean;
}

/** A channel to read back from, after a message id (messages after it are handed to `handleMessage`). */
export interface CatchUpPoint {
  channelId: string;
  afterExternalId: string;
  /**
   * A session room's latest stored messages from people (their ids there, oldest first, up to the point): read back
   * too, so an edit or a deletion made while the bot was away reaches the session as a live one would.
   */
  peopleSaid?: string[];
}

// ---------------------------------------------------------------- tools (agents/ and tools/)

/** Limits and usage of a session, each against its limit. */
export interface LimitsReport {
  messages: { used: number; limit: number };
  tokens: { used: number; limit: number };
  costUsd: { used: number; limit: number };
  minutes: { used: number; limit: number };
  contextPercent: { used: number; limit: number };
  balance: { speaker: string; messages: number }[];
  exceeded: string[];
}

/** A past session recalled by topic similarity. */
export interface RecalledSession {
  sessionId: string;
  topic: string;
  similarity: number;
  summary: string;
}

/** What the agents' tools may do; carried in the SDK RunContext. Implemented by the services. */
export interface ToolPorts {
  sessionId: string;
  /** Posts in the room; `extras` are the service's own (buttons), never a model's. */
  postToRoom(speaker: Speaker, content: string, extras?: RoomPostExtras): Promise<void>;
  checkLimits(): Promise<LimitsReport>;
  startSession(plan: SessionPlan): Promise<void>;
  endSession(reason: string): Promise<void>;
  writeDocument(kind: 'record' | 'tldr', markdown: string): Promise<void>;
  /** Writes the TLDR from its structured summary (rendered the same way wherever it is written). */
  writeSummary(summary: TldrOutput): Promise<void>;
  readDocument(kind: 'record' | 'tldr'): Promise<string | null>;
  recallSessions(query: string, limit: number): Promise<RecalledSession[]>;
}

/** Documentation the context manager and commands read (Scribe record, TLDR). */
export interface DocumentationPort {
  latestRecord(sessionId: string): Promise<string | null>;
  latestTldr(sessionId: string): Promise<string | null>;
  /** Asks for a Scribe pass soon (debounced) or now (`urgent`). */
  requestRecord(sessionId: string, options: { urgent: boolean }): Promise<void>;
  /** Re-reads the record from its store of truth (Notion when configured). */
  refreshRecord(sessionId: string): Promise<string | null>;
}

/** Events for live views (the web console's SSE). */
export type ViewEvent =
  { type: 'session'; session: Session } | { type: 'message'; message: ChatMessage } | { type: 'trace'; sessionId: string | null; traceId: string };

/**
 * Events between services: the lifecycle announces an end (rounds in flight are cut), a `!pause` (no round starts
 * after the answers being written) and a `!continue` (rounds start again); the coordinator and the flood gate listen.
 * Published synchronously, so a listener acts before `publish` returns.
 */
export type ControlEvent =
  { type: 'session_ended'; sessionId: string } | { type: 'session_paused'; sessionId: string } | { type: 'session_resumed'; sessionId: string };

/** Everything published on the bus. */
export type SessionEvent = ViewEvent | ControlEvent;

/** Subscribe to session events. */
export interface EventBus {
  publish(event: SessionEvent): void;
  subscribe(listener: (event: SessionEvent) => void): () => void;
}
