import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../../core/clock.ts';
import type { TokenPrice } from '../../core/cost.ts';

/** What the endpoint's `/models` says about one model. */
export interface ListedModel {
  contextLength: number | undefined;
  /** USD per token; undefined when absent or variable (OpenRouter lists routers at "-1"). */
  price: TokenPrice | undefined;
  /** What the model reads (`architecture.input_modalities`: "text", "image", "file" ...); undefined when unlisted. */
  inputModalities?: readonly string[];
}

/** How to reach the listing and how often to refresh it. */
export interface ModelListingOptions {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  clock: Clock;
  logger?: Logger;
  /** A listing older than this is fetched again in the background (prices change rarely). Default 24 h. */
  refreshMs?: number;
  /** After a failed fetch, the next one waits this long. Default 5 min. */
  retryMs?: number;
}

interface ModelsListBody {
  data?: Array<{
    id?: unknown;
    context_length?: unknown;
    pricing?: { prompt?: unknown; completion?: unknown };
    architecture?: { input_modalities?: unknown };
  }>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 5 * 60 * 1000;

function perToken(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}

function priceOf(pricing: { prompt?: unknown; completion?: unknown } | undefined): TokenPrice | undefined {
  const prompt = perToken(pricing?.prompt);
  const completion = perToken(pricing?.completion);
  return prompt === undefined || completion === undefined ? undefined : { prompt, completion };
}

function modalitiesOf(architecture: { input_modalities?: unknown } | undefined): { inputModalities?: string[] } {
  const listed = architecture?.input_modalities;
  if (!Array.isArray(listed)) return {};
  return { inputModalities: listed.filter((modality): modality is string => typeof modality === 'string') };
}

/** Parses OpenRouter's `{ data: [{ id, context_length, pricing: { prompt, completion }, architecture }] }`. */
export function parseModelsList(body: ModelsListBody): Map<string, ListedModel> {
  const models = new Map<string, ListedModel>();
  for (const entry of body.data ?? []) {
    if (typeof entry.id !== 'string') continue;
    const contextLength = typeof entry.context_length === 'number' && entry.context_length > 0 ? entry.context_length : undefined;
    models.set(entry.id, { contextLength, price: priceOf(entry.pricing), ...modalitiesOf(entry.architecture) });
  }
  return models;
}

/**
 * The endpoint's `/models` list, fetched once and shared by the context windows and the price table; refreshed
 * rarely in the background. A failed fetch keeps what was known and is retried later, never thrown.
 */
export class ModelListing {
  private models: ReadonlyMap<string, ListedModel> | null = null;
  private fetchedAt: number | undefined;
  private failedAt: number | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly options: ModelListingOptions) {}

  /** Fetches the list when none is fresh and no fetch is under way; resolves when that fetch settles. */
  refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (!this.due()) return Promise.resolve();
    this.inFlight = this.fetchList().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The list as known now, without waiting (null before the first success); starts a refresh when one is due. */
  current(): ReadonlyMap<string, ListedModel> | null {
    void this.refresh();
    return this.models;
  }

  /** The list, waiting for the first fetch when nothing is known yet; null while the endpoint cannot list. */
  async get(): Promise<ReadonlyMap<string, ListedModel> | null> {
    const pending = this.refresh();
    if (!this.models) await pending;
    return this.models;
  }

  private due(): boolean {
    const now = this.options.clock.now().getTime();
    if (this.failedAt !== undefined && now - this.failedAt < (this.options.retryMs ?? RETRY_MS)) return false;
    return this.fetchedAt === undefined || now - this.fetchedAt >= (this.options.refreshMs ?? DAY_MS);
  }

  private async fetchList(): Promise<void> {
    const { baseUrl, apiKey, timeoutMs, clock, logger } = this.options;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      const response = await this.options.fetch(`${baseUrl.replace(/\/$/, '')}/models`, { headers, signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.models = parseModelsList((await response.json()) as ModelsListBody);
      this.fetchedAt = clock.now().getTime();
      this.failedAt = undefined;
    } catch (error) {
      this.failedAt = clock.now().getTime();
      logger?.warn({ err: (error as Error).message }, 'could not list models; context windows fall back and prices come from MODEL_PRICES');
    }
  }
}
