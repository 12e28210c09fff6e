/**
 * A small Prometheus text-format registry (counters, histograms, gauges read at scrape time). prom-client is not a
 * dependency: the handful of series here need label escaping and cumulative buckets, nothing more.
 */

/** Label names to values. */
export type Labels = Record<string, string>;

/** One value of a gauge read at scrape time. */
export interface Sample {
  labels: Labels;
  value: number;
}

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  lines(): Promise<string[]>;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`;
}

function formatNumber(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  return Number.isFinite(value) ? String(value) : 'NaN';
}

const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([left], [right]) => left.localeCompare(right)));

/** A monotonically increasing count per label set. */
export class Counter {
  private readonly values = new Map<string, Sample>();

  /** Adds `by` (default 1) to the series of `labels`. */
  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const sample = this.values.get(key) ?? { labels, value: 0 };
    sample.value += by;
    this.values.set(key, sample);
  }

  /** Every series (tests, rendering). */
  samples(): Sample[] {
    return [...this.values.values()];
  }
}

/** Observations counted into cumulative buckets, with their sum and count, per label set. */
export class Histogram {
  private readonly series = new Map<string, { labels: Labels; buckets: number[]; sum: number; count: number }>();

  constructor(readonly bounds: number[]) {}

  /** Records one observation. */
  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    const entry = this.series.get(key) ?? { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
    this.bounds.forEach((bound, index) => {
      if (value <= bound) entry.buckets[index] = (entry.buckets[index] ?? 0) + 1;
    });
    entry.sum += value;
    entry.count += 1;
    this.series.set(key, entry);
  }

  /** The text lines of the histogram `name`. */
  lines(name: string): string[] {
    const lines: string[] = [];
    for (const entry of this.series.values()) {
      this.bounds.forEach((bound, index) =>
        lines.push(`${name}_bucket${formatLabels({ ...entry.labels, le: formatNumber(bound) })} ${entry.buckets[index] ?? 0}`),
      );
      lines.push(`${name}_bucket${formatLabels({ ...entry.labels, le: '+Inf' })} ${entry.count}`);
      lines.push(`${name}_sum${formatLabels(entry.labels)} ${formatNumber(entry.sum)}`);
      lines.push(`${name}_count${formatLabels(entry.labels)} ${entry.count}`);
    }
    return lines;
  }
}

/** The metric families of one process, rendered in the Prometheus text exposition format (version 0.0.4). */
export class MetricsRegistry {
  private readonly families: Family[] = [];

  /** A counter kept in this process. */
  counter(name: string, help: string): Counter {
    const counter = new Counter();
    this.families.push({
      name,
      help,
      type: 'counter',
      lines: async () => counter.samples().map((sample) => `${name}${formatLabels(sample.labels)} ${formatNumber(sample.value)}`),
    });
    return counter;
  }

  /** A histogram kept in this process. */
  histogram(name: string, help: string, bounds: number[]): Histogram {
    const histogram = new Histogram(bounds);
    this.families.push({ name, help, type: 'histogram', lines: async () => histogram.lines(name) });
    return histogram;
  }

  /** A value read when scraped (`type` counter for totals read from the database). */
  collected(name: string, help: string, collect: () => Promise<Sample[]>, type: 'gauge' | 'counter' = 'gauge'): void {
    this.families.push({
      name,
      help,
      type,
      lines: async () => (await collect()).map((sample) => `${name}${formatLabels(sample.labels)} ${formatNumber(sample.value)}`),
    });
  }

  /** The whole exposition; a family whose collection fails is left out (the others still answer). */
  async render(onError: (name: string, error: unknown) => void = () => undefined): Promise<string> {
    const blocks: string[] = [];
    for (const family of this.families) {
      let lines: string[];
      try {
        lines = await family.lines();
      } catch (error) {
        onError(family.name, error);
        continue;
      }
      blocks.push(
        [`# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${family.name} ${family.type}`, ...lines].join('\n'),
      );
    }
    return `${blocks.join('\n')}\n`;
  }
}
