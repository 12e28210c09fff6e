/** The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME with replay, intent and shard filtering. */
import type { Server } from 'node:http';
import { GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord.js';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FakeDiscordState } from './fake-state.ts';
import { guildCreatePayload, readyPayload } from './guild-payloads.ts';

interface DispatchRecord {
  s: number;
  t: string;
  d: unknown;
}

/** The intents an application must turn on in the developer portal before it may ask for them. */
const PRIVILEGED_INTENTS = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;

/** One gateway session; it outlives its socket so a client can resume it. */
export interface GatewaySession {
  id: string;
  intents: number;
  /** [index, count] from IDENTIFY ([0, 1] when the client does not shard). */
  shard: [number, number];
  sequence: number;
  events: DispatchRecord[];
  socket: WebSocket | null;
}

/** Counters tests can read. */
export interface GatewayStats {
  identifies: number;
  resumes: number;
  heartbeats: number;
  connections: number;
}

const MESSAGE_EVENTS = new Set<string>([GatewayDispatchEvents.MessageCreate, GatewayDispatchEvents.MessageUpdate, GatewayDispatchEvents.MessageDelete]);

/** Close codes after which Discord accepts no RESUME of the session (its documentation: "reconnect and start a new session"). */
const SESSION_ENDING_CODES = new Set([4007, 4009]);

/** Serves the gateway on `path` of an existing HTTP server. */
export class FakeGateway {
  readonly sessions = new Map<string, GatewaySession>();
  readonly stats: GatewayStats = { identifies: 0, resumes: 0, heartbeats: 0, connections: 0 };
  private readonly server: WebSocketServer;

  constructor(
    httpServer: Server,
    private readonly state: FakeDiscordState,
    private readonly options: { token: string; botUserId: string; heartbeatIntervalMs: number; resumeUrl: () => string; privilegedIntents?: number },
  ) {
    this.server = new WebSocketServer({ server: httpServer, path: '/gateway' });
    this.server.on('connection', (socket) => this.accept(socket));
    state.onDispatch((event, data) => this.dispatchToAll(event, data));
  }

  /**
   * Closes every socket with `code` (4000 lets discord.js resume; 1000 makes it identify anew). As Discord does, 4007
   * (invalid sequence) and 4009 (session timed out) also end the session: a RESUME of it is refused with op 9, so the
   * client identifies anew and nothing said meanwhile is replayed.
   */
  disconnectAll(code = 4000): void {
    for (const [id, session] of this.sessions) {
      session.socket?.close(code, 'fake: disconnected by test');
      session.socket = null;
      if (SESSION_ENDING_CODES.has(code)) this.sessions.delete(id);
    }
  }

  /** Tells every client to reconnect (op 7), as Discord does before maintenance. */
  requestReconnect(): void {
    for (const session of this.sessions.values()) session.socket?.send(JSON.stringify({ op: GatewayOpcodes.Reconnect, d: null }));
  }

  /** Stops accepting and closes every socket. */
  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    this.stats.connections += 1;
    let session: GatewaySession | null = null;
    socket.send(JSON.stringify({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs } }));
    socket.on('message', (raw) => {
      let payload: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(String(raw)) as typeof payload;
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const data = typeof payload.d === 'object' && payload.d !== null ? payload.d : {};
      switch (payload.op) {
        case GatewayOpcodes.Heartbeat:
          this.stats.heartbeats += 1;
          socket.send(JSON.stringify({ op: GatewayOpcodes.HeartbeatAck }));
          this.state.changed();
          return;
        case GatewayOpcodes.Identify:
          if (session) return socket.close(4005, 'Already authenticated.');
          session = this.identify(socket, data);
          return;
        case GatewayOpcodes.Resume:
          if (session) return socket.close(4005, 'Already authenticated.');
          session = this.resume(socket, data);
          return;
        default:
          if (!session) socket.close(4003, 'Not authenticated.');
      }
    });
    socket.on('close', () => {
      if (session && session.socket === socket) session.socket = null;
    });
  }

  private identify(socket: WebSocket, data: Record<string, unknown>): GatewaySession | null {
    if (data['token'] !== this.options.token) {
      socket.close(4004, 'Authentication failed.');
      return null;
    }
    const disallowed = PRIVILEGED_INTENTS & ~(this.options.privilegedIntents ?? PRIVILEGED_INTENTS) & Number(data['intents'] ?? 0);
    if (disallowed !== 0) {
      socket.close(4014, 'Disallowed intent(s).');
      return null;
    }
    const shard = parseShard(data['shard']);
    if (!shard) {
      socket.close(4010, 'Invalid shard.');
      return null;
    }
    this.stats.identifies += 1;
    const session: GatewaySession = { id: this.state.ids.next(), intents: Number(data['intents'] ?? 0), shard, sequence: 0, events: [], socket };
    this.sessions.set(session.id, session);
    const guildIds = [...this.state.guilds.keys()].filter((guildId) => onShard(guildId, shard));
    this.send(
      session,
      GatewayDispatchEvents.Ready,
      readyPayload(this.state, { botUserId: this.options.botUserId, sessionId: session.id, resumeUrl: this.options.resumeUrl(), shard, guildIds }),
    );
    if (session.intents & GatewayIntentBits.Guilds) {
      for (const guildId of guildIds) this.send(session, GatewayDispatchEvents.GuildCreate, guildCreatePayload(this.state, guildId));
    }
    return session;
  }

  private resume(socket: WebSocket, data: Record<string, unknown>): GatewaySession | null {
    const session = this.sessions.get(String(data['session_id'] ?? ''));
    const sequence = Number(data['seq'] ?? 0);
    if (!session || data['token'] !== this.options.token || sequence > session.sequence) {
      socket.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: false }));
      return null;
    }
    this.stats.resumes += 1;
    session.socket = socket;
    for (const event of session.events.filter((entry) => entry.s > sequence)) socket.send(JSON.stringify({ op: GatewayOpcodes.Dispatch, ...event }));
    this.send(session, GatewayDispatchEvents.Resumed, {});
    return session;
  }

  private dispatchToAll(event: string, data: unknown): void {
    const guildId = (data as { guild_id?: unknown } | null)?.guild_id;
    for (const session of this.sessions.values()) {
      // Discord sends a guild's events only to the session of the shard that holds the guild.
      if (typeof guildId === 'string' && !onShard(guildId, session.shard)) continue;
      const filtered = filterForIntents(event, data, session.intents, this.options.botUserId);
      if (filtered !== undefined) this.send(session, event, filtered);
    }
  }

  private send(session: GatewaySession, event: string, data: unknown): void {
    session.sequence += 1;
    const record: DispatchRecord = { s: session.sequence, t: event, d: data };
    session.events.push(record);
    if (session.socket?.readyState === 1) session.socket.send(JSON.stringify({ op: GatewayOpcodes.Dispatch, ...record }));
  }
}

/** The shard of IDENTIFY ([index, count], index below count); absent means [0, 1]; null when invalid (close 4010). */
function parseShard(value: unknown): [number, number] | null {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [index, count] = value.map(Number) as [number, number];
  return Number.isInteger(index) && Number.isInteger(count) && count >= 1 && index >= 0 && index < count ? [index, count] : null;
}

/** Whether a guild is on a shard, as Discord assigns them: `(guild_id >> 22) % count`. */
export function onShard(guildId: string, [index, count]: [number, number]): boolean {
  return Number((BigInt(guildId) >> 22n) % BigInt(count)) === index;
}

/** What a session with `intents` receives of one dispatch: nothing, the payload, or the payload without content. */
function filterForIntents(event: string, data: unknown, intents: number, botUserId: string): unknown {
  if (MESSAGE_EVENTS.has(event)) {
    if ((intents & GatewayIntentBits.GuildMessages) === 0) return undefined;
    const message = data as { author?: { id?: string }; mentions?: { id: string }[]; content?: string };
    const ownOrMentioned = message.author?.id === botUserId || (message.mentions ?? []).some((user) => user.id === botUserId);
    // Without the privileged MessageContent intent Discord sends messages with empty content.
    if ((intents & GatewayIntentBits.MessageContent) === 0 && !ownOrMentioned && message.content !== undefined)
      return { ...message, content: '', embeds: [], components: [], attachments: [] };
    return data;
  }
  if (event === GatewayDispatchEvents.GuildMemberAdd) return intents & GatewayIntentBits.GuildMembers ? data : undefined;
  if (event === GatewayDispatchEvents.WebhooksUpdate) return intents & GatewayIntentBits.GuildWebhooks ? data : undefined;
  if (event === GatewayDispatchEvents.InteractionCreate) return data;
  return intents & GatewayIntentBits.Guilds ? data : undefined;
}
