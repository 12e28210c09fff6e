/** `GET /metrics`: the Prometheus text exposition (behind the console's token like the API; `/healthz` is public). */
import type { Hono } from 'hono';
import { textResponse } from './http-kit.ts';

/** The content type of the Prometheus text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Registers `/metrics` when the app offers metrics. */
export function registerMetricsRoute(app: Hono, metrics: (() => Promise<string>) | undefined): void {
  if (!metrics) return;
  app.get('/metrics', async () => textResponse(PROMETHEUS_CONTENT_TYPE, await metrics()));
}
