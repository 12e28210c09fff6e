/** Routes for reading beyond one page: search across sessions, and a session's transcript as a file. */
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import { exportFileName, exportMarkdown, type SessionExport } from '../services/console/transcript-export.ts';
import { SECURITY_HEADERS, sendJson } from './http-kit.ts';
import type { Router } from './router.ts';
import { HttpError } from './web-errors.ts';

async function sessionExport(queries: ConsoleQueries, sessionId: string, now: Date): Promise<SessionExport> {
  const detail = await queries.getSession(sessionId);
  if (!detail) throw new HttpError(404, 'No such session.');
  const messages = await queries.listMessages(sessionId);
  return { session: detail.session, messages, record: detail.record?.content ?? null, tldr: detail.tldr?.content ?? null, exportedAt: now.toISOString() };
}

/** Registers `GET /api/search?q=` and `GET /api/sessions/:id/export?format=md|json`. */
export function registerReadingRoutes(router: Router, queries: ConsoleQueries, now: () => Date): void {
  router.add('GET', '/api/search', async ({ response, query }) => sendJson(response, 200, await queries.search((query.get('q') ?? '').slice(0, 200))));
  router.add('GET', '/api/sessions/:id/export', async ({ response, params, query }) => {
    const data = await sessionExport(queries, params.id as string, now());
    const format = query.get('format') === 'json' ? 'json' : 'md';
    const disposition = { 'Content-Disposition': `attachment; filename="${exportFileName(data.session.topic, format)}"` };
    if (format === 'json') return sendJson(response, 200, data, disposition);
    const body = exportMarkdown(data);
    response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'no-store', ...disposition });
    response.end(body);
  });
}
