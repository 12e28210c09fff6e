/** The local channel's write API: a person at the console starts sessions, talks, and runs commands. */
import type { Logger } from 'pino';
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import type { Author } from '../core/domain.ts';
import { BrainstormError, describeForPerson, type BrainstormErrorCode } from '../core/errors.ts';
import type { IdGenerator } from '../core/ids.ts';
import type { GatewayReply, SessionGateway } from '../core/ports.ts';
import type { Hono } from 'hono';
import { jsonBody, jsonResponse, optionalText, readJsonBody, requireText } from './http-kit.ts';
import type { LocalRoom, LocalTransport } from './local-transport.ts';
import { HttpError } from './web-errors.ts';
import { clipText } from '../core/text-clip.ts';

/** The channel id every local session starts from. */
export const LOCAL_CHANNEL_ID = 'local';

const MAX_TOPIC_CHARS = 4_000;
/**
 * What the route takes of a message: a bound on the request, not the room's limit. The gateway's screen applies
 * MAX_HUMAN_MESSAGE_CHARS (changeable with `!config`) and says how long the message was and what the limit is.
 */
const MAX_MESSAGE_CHARS = 60_000;
/** The person's name until they give one. Models and the Notion record speak of the person by it: "You" read as "stopped by You". */
const DEFAULT_PERSON = 'Host';

const STATUS_BY_CODE: Partial<Record<BrainstormErrorCode, number>> = {
  bad_input: 400,
  unknown_command: 400,
  guardrail_tripped: 400,
  forbidden: 403,
  not_found: 404,
  wrong_state: 409,
  limit_reached: 409,
  rate_limited: 429,
  model_unavailable: 503,
  service_unavailable: 503,
};

/** What the local channel routes need. */
export interface LocalChannelDependencies {
  gateway: SessionGateway;
  transport: LocalTransport;
  queries: ConsoleQueries;
  ids: IdGenerator;
  logger: Logger;
}

/** The person at the console: named by the page, and an admin (it is their own machine). */
export function localPerson(name: string): Author {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'person';
  return { id: `local:${slug}`, name, isAdmin: true };
}

function replyBody(reply: GatewayReply | null): { reply: GatewayReply | null } {
  return { reply };
}

async function callGateway<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (BrainstormError.isInstance(error)) throw new HttpError(STATUS_BY_CODE[error.code] ?? 500, error.message);
    throw error;
  }
}

/** A room's title from its session's topic, as long as a Discord thread's name may be. */
const roomTitle = (topic: string): string => clipText(topic, 100);

/** The room, also one whose session outlived a restart of this process (the store knows it, the transport not yet). */
async function requireRoom(dependencies: LocalChannelDependencies, roomId: string): Promise<LocalRoom> {
  const known = dependencies.transport.getRoom(roomId);
  if (known) return known;
  const detail = await dependencies.queries.getSessionByRoom(dependencies.transport.name, roomId);
  if (!detail) throw new HttpError(404, 'No such room in the local channel.');
  return dependencies.transport.adoptRoom(roomId, roomTitle(detail.session.topic), detail.session.createdAt);
}

/**
 * The local channel's rooms, newest first: those this process opened or served, and those of the sessions the
 * database keeps (opened before a restart, or by another process), as Discord lists a thread whoever created it.
 */
async function listRooms(dependencies: LocalChannelDependencies): Promise<LocalRoom[]> {
  const { transport, queries } = dependencies;
  const served = transport.listRooms();
  const known = new Set(served.map((room) => room.roomId));
  const kept = (await queries.listSessions())
    .filter((session) => session.transport === transport.name && !known.has(session.roomId))
    .map((session) => transport.describeRoom(session.roomId, roomTitle(session.topic), session.createdAt));
  return [...served, ...kept].sort((first, second) => second.openedAt.localeCompare(first.openedAt));
}

/** Registers the local channel routes. */
export function registerLocalChannelRoutes(app: Hono, dependencies: LocalChannelDependencies): void {
  const { transport, queries } = dependencies;
  app.get('/api/rooms', async () => jsonResponse(200, await listRooms(dependencies)));
  app.get('/api/rooms/:roomId', async (c) => {
    const room = await requireRoom(dependencies, c.req.param('roomId'));
    const detail = await queries.getSessionByRoom(transport.name, room.roomId);
    return jsonResponse(200, { room, sessionId: detail?.session.id ?? null, ...(await transport.roomContents(room.roomId)) });
  });
  app.post('/api/local/sessions', jsonBody, async (c) => {
    const body = await readJsonBody(c);
    const topic = requireText(body, 'topic', MAX_TOPIC_CHARS);
    const name = optionalText(body, 'name', DEFAULT_PERSON, 80);
    const from = optionalText(body, 'fromRoomId', '', 200);
    return jsonResponse(
      200,
      from ? await startFromRoom(dependencies, await requireRoom(dependencies, from), topic, name) : await startSession(dependencies, topic, name),
    );
  });
  app.post('/api/rooms/:roomId/messages', jsonBody, async (c) => {
    const room = await requireRoom(dependencies, c.req.param('roomId'));
    const body = await readJsonBody(c);
    const content = requireText(body, 'content', MAX_MESSAGE_CHARS);
    const author = localPerson(optionalText(body, 'name', DEFAULT_PERSON, 80));
    const externalId = clientMessageId(body) ?? dependencies.ids.next('lin');
    const reply = await callGateway(() =>
      dependencies.gateway.handleMessage({
        transport: transport.name,
        roomId: room.roomId,
        channelId: LOCAL_CHANNEL_ID,
        externalId,
        author,
        content,
        url: null,
      }),
    );
    return jsonResponse(200, replyBody(reply));
  });
  app.post('/api/rooms/:roomId/commands', jsonBody, async (c) => {
    const room = await requireRoom(dependencies, c.req.param('roomId'));
    const body = await readJsonBody(c);
    const name = requireText(body, 'command', 40).replace(/^[!/]/, '').toLowerCase();
    const args = optionalText(body, 'args', '', MAX_MESSAGE_CHARS);
    const author = localPerson(optionalText(body, 'name', DEFAULT_PERSON, 80));
    const reply = await callGateway(() =>
      dependencies.gateway.runCommand({ transport: transport.name, roomId: room.roomId, channelId: LOCAL_CHANNEL_ID, author, name, args }),
    );
    return jsonResponse(200, replyBody(reply));
  });
}

/**
 * Posts a topic as a person's message in the local channel. Answers as soon as the session's room opens
 * (the Planner may still be thinking); a reply that comes later is shown in the room as a notice.
 */
async function startSession(
  dependencies: LocalChannelDependencies,
  topic: string,
  name: string,
): Promise<{ roomId: string | null; reply: GatewayReply | null }> {
  const { transport, gateway, logger } = dependencies;
  const externalId = dependencies.ids.next('lin');
  const roomsBefore = new Set(transport.listRooms().map((room) => room.roomId));
  const opened = new AbortController();
  const roomOpened = transport.waitForRoom(externalId, opened.signal);
  const handled = gateway.handleMessage({
    transport: transport.name,
    roomId: null,
    channelId: LOCAL_CHANNEL_ID,
    externalId,
    author: localPerson(name),
    content: topic,
    url: null,
  });
  const first = await Promise.race([roomOpened.then((room) => ({ room })), handled.then((reply) => ({ reply }))]).catch((error: unknown) => {
    opened.abort();
    if (BrainstormError.isInstance(error)) throw new HttpError(STATUS_BY_CODE[error.code] ?? 500, error.message);
    throw error;
  });
  if ('room' in first && first.room) {
    handled.then(
      (reply) => reply && transport.postNotice((first.room as LocalRoom).roomId, reply.content),
      (error: unknown) => {
        logger.warn({ err: error }, 'starting a local session failed after its room opened');
        transport.postNotice((first.room as LocalRoom).roomId, describeForPerson(error));
      },
    );
    return { roomId: first.room.roomId, reply: null };
  }
  opened.abort();
  const reply = 'reply' in first ? first.reply : null;
  // A gateway that did not pass our message id as the room's origin: the one room opened meanwhile is ours.
  const openedMeanwhile = transport.listRooms().filter((room) => !roomsBefore.has(room.roomId));
  return { roomId: openedMeanwhile.length === 1 ? (openedMeanwhile[0] as LocalRoom).roomId : null, reply };
}

/** Starts a session from a room's conversation (`!brainstorm` there): the Planner reads its last messages. */
async function startFromRoom(
  dependencies: LocalChannelDependencies,
  from: LocalRoom,
  topic: string,
  name: string,
): Promise<{ roomId: string | null; reply: GatewayReply | null }> {
  const { transport, gateway } = dependencies;
  const roomsBefore = new Set(transport.listRooms().map((room) => room.roomId));
  const reply = await callGateway(() =>
    gateway.runCommand({
      transport: transport.name,
      roomId: from.roomId,
      channelId: LOCAL_CHANNEL_ID,
      author: localPerson(name),
      name: 'brainstorm',
      args: topic,
    }),
  );
  const opened = transport.listRooms().find((room) => !roomsBefore.has(room.roomId));
  return { roomId: opened?.roomId ?? null, reply };
}

/** The page's own id for a message, so a resend after a lost answer is claimed, and acted on, once. */
function clientMessageId(body: unknown): string | null {
  const value = typeof body === 'object' && body !== null ? (body as { clientId?: unknown }).clientId : undefined;
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]{8,64}$/.test(value)) throw new HttpError(400, '`clientId` must be 8 to 64 letters, digits or dashes.');
  return `lcl-${value}`;
}
