import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { MetricsRepository } from '../../../../src/repositories/metrics-repository.ts';
import { createAppMetrics, createTurnMetrics, type EventLoopDelay } from '../../../../src/services/scale/app-metrics.ts';
import { MetricsRegistry } from '../../../../src/services/scale/metrics-registry.ts';
import { stub } from '../../../support/service-doubles.ts';

const repository = stub<MetricsRepository>('metrics repository', {
  queueDepth: async () => [],
  jobFailures: async () => [],
  sessionsByStatus: async () => [],
});

function appMetrics(windows: EventLoopDelay[], closed: string[]) {
  const registry = new MetricsRegistry();
  const clock = new ManualClock(new Date('2026-11-26T00:00:00Z'));
  return createAppMetrics(registry, createTurnMetrics(registry, clock), {
    clock,
    logger: pino({ level: 'silent' }),
    repository,
    ownedSessions: () => 0,
    memory: () => ({ rss: 300e6, heapTotal: 120e6, heapUsed: 90e6, external: 5e6 }),
    eventLoopDelay: {
      read: () => windows.shift() ?? { p50: 0, p99: 0, max: 0 },
      close: () => closed.push('loop delay'),
    },
  });
}

describe('the process families of /metrics', () => {
  it('reads one event-loop window per scrape, shown under the names Prometheus client libraries use', async () => {
    const closed: string[] = [];
    const metrics = appMetrics(
      [
        { p50: 0.011, p99: 0.025, max: 0.04 },
        { p50: 0.012, p99: 0.5, max: 1.25 },
      ],
      closed,
    );
    const first = await metrics.render();
    expect(first).toContain('nodejs_eventloop_lag_p50_seconds 0.011\n');
    expect(first).toContain('nodejs_eventloop_lag_p99_seconds 0.025\n');
    expect(first).toContain('nodejs_eventloop_lag_max_seconds 0.04\n');
    // The next scrape shows the next window, all three figures from it.
    const second = await metrics.render();
    expect(second).toContain('nodejs_eventloop_lag_p99_seconds 0.5\n');
    expect(second).toContain('nodejs_eventloop_lag_max_seconds 1.25\n');
    expect(second).toContain('process_resident_memory_bytes 300000000\n');
    expect(second).toContain('nodejs_heap_size_used_bytes 90000000\n');
    expect(closed).toEqual([]);
    metrics.close();
    expect(closed).toEqual(['loop delay']);
  });

  it("shows whether the process hears the other processes' notices, where there are any (Postgres)", async () => {
    let listening = true;
    const registry = new MetricsRegistry();
    const clock = new ManualClock(new Date('2026-11-26T00:00:00Z'));
    const sources = { clock, logger: pino({ level: 'silent' }), repository, ownedSessions: () => 0 };
    const metrics = createAppMetrics(registry, createTurnMetrics(registry, clock), { ...sources, noticesListening: () => listening });
    expect(await metrics.render()).toContain('brainstorm_notices_listening 1\n');
    listening = false;
    expect(await metrics.render()).toContain('brainstorm_notices_listening 0\n');
    const embedded = new MetricsRegistry();
    expect(await createAppMetrics(embedded, createTurnMetrics(embedded, clock), sources).render()).not.toContain('brainstorm_notices_listening');
  });
});
