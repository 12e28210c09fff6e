/** The event loop's delay in this process, measured by perf_hooks and read one window at a time (per scrape). */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { EventLoopDelaySource } from './app-metrics.ts';

/** How the event loop's delay is sampled. */
export interface EventLoopDelayOptions {
  /** The sampling timer's period in milliseconds (20 unless given): finer sees shorter stalls and costs more wake-ups. */
  resolutionMs?: number;
}

/**
 * Seconds of delay in one sample: perf_hooks records the whole interval between two firings of its timer, so an idle
 * loop sampled every 10 ms reads 10 ms; the sampling period itself is not delay.
 */
export function delaySeconds(intervalNanoseconds: number, resolutionMs: number): number {
  return Number.isFinite(intervalNanoseconds) ? Math.max(0, intervalNanoseconds / 1e9 - resolutionMs / 1000) : 0;
}

/** Starts measuring now; each `read` returns the window since the previous one, `close` stops the sampling timer. */
export function measureEventLoopDelay(options: EventLoopDelayOptions = {}): EventLoopDelaySource {
  const resolutionMs = options.resolutionMs ?? 20;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const seconds = (nanoseconds: number) => delaySeconds(nanoseconds, resolutionMs);
  return {
    read() {
      const window = { p50: seconds(histogram.percentile(50)), p99: seconds(histogram.percentile(99)), max: seconds(histogram.max) };
      histogram.reset();
      return window;
    },
    close: () => histogram.disable(),
  };
}
