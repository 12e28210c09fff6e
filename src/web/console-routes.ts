/** The console's read API: sessions, transcripts, traces, and the session feed of the local channel. */
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import type { TraceSearch } from '../services/console/console-types.ts';
import { sendJson } from './http-kit.ts';
import type { LocalTransport } from './local-transport.ts';
import { mergeRoomFeed } from './room-feed.ts';
import type { RouteContext, Router } from './router.ts';
import { HttpError } from './web-errors.ts';

function traceSearchFrom(query: URLSearchParams): TraceSearch {
  const search: TraceSearch = {};
  for (const key of ['sessionId', 'text', 'agent', 'model'] as const) {
    const value = query.get(key)?.trim();
    if (value) search[key] = value.slice(0, 200);
  }
  if (query.get('errors') === '1' || query.get('errorsOnly') === 'true') search.errorsOnly = true;
  const limit = Number(query.get('limit'));
  if (Number.isInteger(limit) && limit > 0) search.limit = limit;
  return search;
}

function found<T>(value: T | null, what: string): T {
  if (value === null) throw new HttpError(404, `No such ${what}.`);
  return value;
}

/** Registers the read routes. */
export function registerConsoleRoutes(router: Router, queries: ConsoleQueries, localTransport: LocalTransport | undefined): void {
  router.add('GET', '/api/sessions', async ({ response }: RouteContext) => sendJson(response, 200, await queries.listSessions()));
  router.add('GET', '/api/sessions/:id', async ({ response, params }) =>
    sendJson(response, 200, found(await queries.getSession(params.id as string), 'session')),
  );
  router.add('GET', '/api/sessions/:id/messages', async ({ response, params, query }) => {
    const after = Number(query.get('afterId'));
    sendJson(response, 200, await queries.listMessages(params.id as string, Number.isInteger(after) && after > 0 ? after : undefined));
  });
  router.add('GET', '/api/sessions/:id/feed', async ({ response, params }) => {
    const detail = found(await queries.getSession(params.id as string), 'session');
    const messages = await queries.listMessages(detail.session.id);
    const room = detail.session.transport === 'local' ? localTransport?.roomContents(detail.session.roomId) : null;
    sendJson(response, 200, {
      detail,
      items: mergeRoomFeed(messages, room?.deliveries ?? []),
      previews: room?.previews ?? [],
      ideas: await queries.getIdeas(detail.session.id),
      critique: await queries.getCritique(detail.session.id),
    });
  });
  router.add('GET', '/api/sessions/:id/ideas', async ({ response, params }) =>
    sendJson(response, 200, found(await queries.getIdeas(params.id as string), 'session')),
  );
  router.add('GET', '/api/sessions/:id/critique', async ({ response, params }) => {
    found(await queries.getSession(params.id as string), 'session');
    sendJson(response, 200, await queries.getCritique(params.id as string));
  });
  router.add('GET', '/api/traces', async ({ response, query }) => sendJson(response, 200, await queries.searchTraces(traceSearchFrom(query))));
  router.add('GET', '/api/traces/:id', async ({ response, params, query }) => {
    const payloads = query.get('payloads') === '1';
    sendJson(response, 200, found(await queries.getTrace(params.id as string, { payloads }), 'trace'));
  });
  router.add('GET', '/api/traces/:id/spans/:spanId', async ({ response, params }) =>
    sendJson(response, 200, found(await queries.getSpan(params.id as string, params.spanId as string), 'span')),
  );
  router.add('GET', '/api/traces/:id/export', async ({ response, params }) => {
    const stored = found(await queries.exportTrace(params.id as string), 'trace');
    const fileName = `trace-${(params.id as string).replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
    sendJson(response, 200, stored, { 'Content-Disposition': `attachment; filename="${fileName}"` });
  });
}
