/** Small helpers over hono: security headers, JSON answers, bounded JSON bodies. */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { HttpError } from './web-errors.ts';
import { clipText } from '../core/text-clip.ts';

const MAX_BODY_BYTES = 64 * 1024;

/** Headers every answer carries: nothing from elsewhere, no framing, no sniffing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Stamps the security headers on every answer, errors and event streams included. */
export const securityHeaders: MiddlewareHandler = createMiddleware(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
});

/** A JSON answer (never cached). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** A JSON error answer `{ error: { status, message } }`. */
export function errorResponse(status: number, message: string): Response {
  return jsonResponse(status, { error: { status, message } });
}

/** A text answer of a given type (never cached). */
export function textResponse(type: string, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers } });
}

const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => errorResponse(413, 'The request body is too large (64 KiB at most).') });

/** Middleware for a route taking a JSON body: the type first (415), then at most 64 KiB (413). */
export const jsonBody: MiddlewareHandler = createMiddleware(async (c, next) => {
  // Requiring JSON also keeps cross-site HTML forms out: they cannot send this type without a preflight.
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'Send a JSON body (Content-Type: application/json).');
  }
  return limitBody(c, next);
});

/** Reads the JSON object body of a route guarded by `jsonBody`; anything else is a 400 HttpError. */
export async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse((await c.req.text()) || '{}');
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (!isRecord(parsed)) throw new HttpError(400, 'The request body must be a JSON object.');
  return parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required non-empty string field of a body, trimmed and capped. */
export function requireText(body: Record<string, unknown>, field: string, maxLength: number): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim().length === 0) throw new HttpError(400, `"${field}" must be a non-empty string.`);
  if (value.length > maxLength) throw new HttpError(400, `"${field}" is longer than ${maxLength} characters.`);
  return value.trim();
}

/** An optional string field of a body, or the fallback. */
export function optionalText(body: Record<string, unknown>, field: string, fallback: string, maxLength: number): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim().length === 0) return fallback;
  return clipText(value.trim(), maxLength);
}
