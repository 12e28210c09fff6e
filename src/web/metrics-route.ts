/** `GET /metrics`: the Prometheus text exposition (behind the console's token like the API; `/healthz` is public). */
import { SECURITY_HEADERS } from './http-kit.ts';
import type { Router } from './router.ts';

/** The content type of the Prometheus text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Registers `/metrics` when the app offers metrics. */
export function registerMetricsRoute(router: Router, metrics: (() => Promise<string>) | undefined): void {
  if (!metrics) return;
  router.add('GET', '/metrics', async ({ response }) => {
    const text = await metrics();
    response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': PROMETHEUS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
    response.end(text);
  });
}
