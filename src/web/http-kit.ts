/** Small helpers over node:http: security headers, JSON answers, bounded JSON bodies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './web-errors.ts';

const MAX_BODY_BYTES = 64 * 1024;

/** Headers every answer carries: nothing from elsewhere, no framing, no sniffing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Writes a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  response.end(text);
}

/** Writes a JSON error answer `{ error: { status, message } }`. */
export function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: { status, message } });
}

/** Reads a JSON object body (at most 64 KiB); anything else is a 4xx HttpError. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const type = request.headers['content-type'] ?? '';
  // Requiring JSON also keeps cross-site HTML forms out: they cannot send this type without a preflight.
  if (!type.toLowerCase().startsWith('application/json')) throw new HttpError(415, 'Send a JSON body (Content-Type: application/json).');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The request body is too large.');
    chunks.push(buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'The request body must be a JSON object.');
  return parsed as Record<string, unknown>;
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
  return value.trim().slice(0, maxLength);
}
