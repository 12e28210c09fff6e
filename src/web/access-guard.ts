/** Who may use the console: loopback callers by default, token holders when bound elsewhere. */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { errorResponse } from './http-kit.ts';

const COOKIE_NAME = 'brainstorm_console';
const UNAUTHORIZED_MESSAGE = 'This console needs its WEB_TOKEN (Authorization: Bearer, or ?token= once).';
/** The token syntax of RFC 6750, the only one `bearerAuth` reads from the header. */
const RFC6750_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

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

/** What the guard is built from: the bound address, and the token when there is one. */
export interface AccessGuardOptions {
  host: string;
  port: () => number;
  token: string | undefined;
}

/** Builds the guard middleware; it answers (421, 303 with the cookie, 401) itself when a request may not pass. */
export function createAccessGuard(options: AccessGuardOptions): MiddlewareHandler {
  const loopback = isLoopbackHost(options.host);
  const tokenCheck = options.token ? createTokenCheck(options.token) : null;
  return createMiddleware(async (c, next) => {
    if (loopback && !hostHeaderAllowed(c.req.header('host'), options.host, options.port())) {
      // A page on another site that resolves its name to 127.0.0.1 (DNS rebinding) must not reach us.
      return errorResponse(421, 'This console answers only on its own address.');
    }
    if (!tokenCheck) return next();
    return tokenCheck(c, next);
  });
}

function createTokenCheck(token: string): MiddlewareHandler {
  const unauthorized = () => errorResponse(401, UNAUTHORIZED_MESSAGE);
  // Every refusal, a malformed header included, keeps the console's one 401 JSON answer.
  const bearer = bearerAuth({
    token,
    noAuthenticationHeader: { message: unauthorized },
    invalidAuthenticationHeader: { message: unauthorized },
    invalidToken: { message: unauthorized },
  });
  return createMiddleware(async (c, next) => {
    const url = new URL(c.req.url);
    const fromQuery = url.searchParams.get('token');
    if (fromQuery !== null && sameSecret(fromQuery, token)) {
      url.searchParams.delete('token');
      // The token travels in the URL once; after that it lives in an HttpOnly cookie.
      setCookie(c, COOKIE_NAME, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    const header = c.req.header('authorization');
    if (header?.startsWith('Bearer ')) {
      const given = header.slice('Bearer '.length);
      // A WEB_TOKEN outside RFC 6750's characters has always worked in the header; bearerAuth would refuse its syntax.
      if (!RFC6750_TOKEN.test(given.trimStart())) return sameSecret(given.trim(), token) ? next() : unauthorized();
      return bearer(c, next);
    }
    const fromCookie = getCookie(c, COOKIE_NAME);
    if (fromCookie !== undefined && sameSecret(fromCookie, token)) return next();
    return bearer(c, next);
  });
}

function hostHeaderAllowed(header: string | undefined, boundHost: string, port: number): boolean {
  if (!header) return false;
  const allowed = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${boundHost}:${port}`]);
  return allowed.has(header.toLowerCase());
}
