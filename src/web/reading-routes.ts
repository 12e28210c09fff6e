/** Routes for reading beyond one page: search across sessions, and a session's transcript as a file. */
import type { ConsoleQueries } from '../services/console/console-queries.ts';
import { exportFileName, exportMarkdown, type SessionExport } from '../services/console/transcript-export.ts';
import type { Hono } from 'hono';
import { jsonResponse, textResponse } from './http-kit.ts';
import { HttpError } from './web-errors.ts';
import { clipText } from '../core/text-clip.ts';

async function sessionExport(queries: ConsoleQueries, sessionId: string, now: Date): Promise<SessionExport> {
  const detail = await queries.getSession(sessionId);
  if (!detail) throw new HttpError(404, 'No such session.');
  const messages = await queries.listMessages(sessionId);
  return { session: detail.session, messages, record: detail.record?.content ?? null, tldr: detail.tldr?.content ?? null, exportedAt: now.toISOString() };
}

/** Registers `GET /api/search?q=` and `GET /api/sessions/:id/export?format=md|json`. */
export function registerReadingRoutes(app: Hono, queries: ConsoleQueries, now: () => Date): void {
  app.get('/api/search', async (c) => jsonResponse(200, await queries.search(clipText(c.req.query('q') ?? '', 200))));
  app.get('/api/sessions/:id/export', async (c) => {
    const data = await sessionExport(queries, c.req.param('id'), now());
    const format = c.req.query('format') === 'json' ? 'json' : 'md';
    const disposition = { 'Content-Disposition': `attachment; filename="${exportFileName(data.session.topic, format)}"` };
    if (format === 'json') return jsonResponse(200, data, disposition);
    return textResponse('text/markdown; charset=utf-8', exportMarkdown(data), disposition);
  });
}
