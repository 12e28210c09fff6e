/** Who may use the console: loopback callers by default, token holders when bound elsewhere. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, SECURITY_HEADERS } from './http-kit.ts';

const COOKIE_NAME = 'brainstorm_console';

/** True for an address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookieToken(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE_NAME) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function bearerToken(request: IncomingMessage): string | null {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : null;
}

/** Decides per request; answers (401, redirect, 421) itself when the request may not pass. */
export type AccessGuard = (request: IncomingMessage, response: ServerResponse, url: URL) => boolean;

/** Builds the guard for a bound host/port and an optional token. */
export function createAccessGuard(options: { host: string; port: () => number; token: string | undefined }): AccessGuard {
  const loopback = isLoopbackHost(options.host);
  return (request, response, url) => {
    if (loopback && !hostHeaderAllowed(request.headers.host, options.host, options.port())) {
      // A page on another site that resolves its name to 127.0.0.1 (DNS rebinding) must not reach us.
      sendError(response, 421, 'This console answers only on its own address.');
      return false;
    }
    const token = options.token;
    if (!token) return true;
    const fromQuery = url.searchParams.get('token');
    if (fromQuery !== null && sameSecret(fromQuery, token)) {
      url.searchParams.delete('token');
      // The token travels in the URL once; after that it lives in an HttpOnly cookie.
      response.writeHead(303, {
        ...SECURITY_HEADERS,
        Location: `${url.pathname}${url.search}`,
        'Set-Cookie': `${COOKIE_NAME}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
      });
      response.end();
      return false;
    }
    const given = bearerToken(request) ?? cookieToken(request);
    if (given !== null && sameSecret(given, token)) return true;
    sendError(response, 401, 'This console needs its WEB_TOKEN (Authorization: Bearer, or ?token= once).');
    return false;
  };
}

function hostHeaderAllowed(header: string | undefined, boundHost: string, port: number): boolean {
  if (!header) return false;
  const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${boundHost}:${port}`]);
  return allowed.has(header.toLowerCase());
}
