/** The event loop's delay in this process, measured by perf_hooks and read one window at a time (per scrape). */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { EventLoopDelaySource } from './app-metrics.ts';

/** How often the event loop's delay is sampled, in milliseconds. */
const RESOLUTION_MS = 20;

/** Starts measuring now; each `read` returns the window since the previous one, `close` stops the sampling timer. */
export function measureEventLoopDelay(): EventLoopDelaySource {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // perf_hooks reports the whole interval between samples: the sampling period itself is not delay.
  const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? Math.max(0, nanoseconds / 1e9 - RESOLUTION_MS / 1000) : 0);
  return {
    read() {
      const window = { p50: seconds(histogram.percentile(50)), p99: seconds(histogram.percentile(99)), max: seconds(histogram.max) };
      histogram.reset();
      return window;
    },
    close: () => histogram.disable(),
  };
}
