/** The console's read API: sessions, transcripts, traces, and the session feed of the local channel. */
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import type { TraceSearch } from '../services/console/console-types.ts';
import type { Context, Hono } from 'hono';
import { jsonResponse } from './http-kit.ts';
import type { LocalTransport } from './local-transport.ts';
import { mergeRoomFeed } from './room-feed.ts';
import { HttpError } from './web-errors.ts';
import { clipText } from '../core/text-clip.ts';

function traceSearchFrom(c: Context): TraceSearch {
  const search: TraceSearch = {};
  for (const key of ['sessionId', 'text', 'agent', 'model'] as const) {
    const value = c.req.query(key)?.trim();
    if (value) search[key] = clipText(value, 200);
  }
  if (c.req.query('errors') === '1' || c.req.query('errorsOnly') === 'true') search.errorsOnly = true;
  const limit = Number(c.req.query('limit') ?? null);
  if (Number.isInteger(limit) && limit > 0) search.limit = limit;
  return search;
}

function found<T>(value: T | null, what: string): T {
  if (value === null) throw new HttpError(404, `No such ${what}.`);
  return value;
}

/** Registers the read routes. */
export function registerConsoleRoutes(app: Hono, queries: ConsoleQueries, localTransport: LocalTransport | undefined): void {
  app.get('/api/sessions', async () => jsonResponse(200, await queries.listSessions()));
  app.get('/api/sessions/:id', async (c) => jsonResponse(200, found(await queries.getSession(c.req.param('id')), 'session')));
  app.get('/api/sessions/:id/messages', async (c) => {
    const after = Number(c.req.query('afterId') ?? null);
    return jsonResponse(200, await queries.listMessages(c.req.param('id'), Number.isInteger(after) && after > 0 ? after : undefined));
  });
  app.get('/api/sessions/:id/feed', async (c) => {
    const detail = found(await queries.getSession(c.req.param('id')), 'session');
    const messages = await queries.listMessages(detail.session.id);
    const room = detail.session.transport === 'local' ? await localTransport?.roomContents(detail.session.roomId) : null;
    return jsonResponse(200, {
      detail,
      items: mergeRoomFeed(messages, room?.deliveries ?? []),
      previews: room?.previews ?? [],
      ideas: await queries.getIdeas(detail.session.id),
      critique: await queries.getCritique(detail.session.id),
    });
  });
  app.get('/api/sessions/:id/ideas', async (c) => jsonResponse(200, found(await queries.getIdeas(c.req.param('id')), 'session')));
  app.get('/api/sessions/:id/critique', async (c) => {
    found(await queries.getSession(c.req.param('id')), 'session');
    return jsonResponse(200, await queries.getCritique(c.req.param('id')));
  });
  app.get('/api/traces', async (c) => jsonResponse(200, await queries.searchTraces(traceSearchFrom(c))));
  app.get('/api/traces/:id', async (c) => {
    const payloads = c.req.query('payloads') === '1';
    return jsonResponse(200, found(await queries.getTrace(c.req.param('id'), { payloads }), 'trace'));
  });
  app.get('/api/traces/:id/spans/:spanId', async (c) => jsonResponse(200, found(await queries.getSpan(c.req.param('id'), c.req.param('spanId')), 'span')));
  app.get('/api/traces/:id/export', async (c) => {
    const id = c.req.param('id');
    const stored = found(await queries.exportTrace(id), 'trace');
    const fileName = `trace-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
    return jsonResponse(200, stored, { 'Content-Disposition': `attachment; filename="${fileName}"` });
  });
}
