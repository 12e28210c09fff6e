/** Which errors of the pg driver say the server is unreachable, rather than that a statement was wrong or refused. */
import { DatabaseUnreachableError } from '../core/database-unreachable.ts';

/** Socket errors: the server is down, restarting, or the network between us is. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server going away or not yet taking connections: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
/** What pg says when the socket closed under a client, or no connection came within the pool's timeout (no code). */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error/,
  /^Client was closed and is not queryable$/,
];

/** True for an error of pg that says the server could not be reached or dropped the connection. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return SOCKET_CODES.has(code) || SERVER_GOING_AWAY.has(code) || code.startsWith('08');
  return DRIVER_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** The error to throw for a failed connect or statement: a DatabaseUnreachableError when the server is away, else itself. */
export function asUnreachable(error: unknown): unknown {
  return isConnectionFailure(error) ? new DatabaseUnreachableError({ cause: error }) : error;
}
