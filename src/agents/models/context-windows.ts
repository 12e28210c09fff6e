import type { Logger } from '../../logging/logger.ts';
import type { ModelsConfig } from './model-catalog.ts';

/** The window assumed when neither the roster nor the endpoint knows better. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

interface ContextWindowsOptions {
  config: ModelsConfig;
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  logger?: Logger;
}

interface ModelsListBody {
  data?: Array<{ id?: unknown; context_length?: unknown }>;
}

/** Context windows per model id: roster first, then the endpoint's `/models` list (fetched once), then a fallback. */
export class ContextWindows {
  private listing: Promise<Map<string, number> | null> | undefined;

  constructor(private readonly options: ContextWindowsOptions) {}

  /** The context window of `modelId` in tokens. */
  async of(modelId: string): Promise<number> {
    const configured = this.options.config.roster.find((entry) => entry.model === modelId && entry.contextWindow)?.contextWindow;
    if (configured) return configured;
    this.listing ??= this.fetchListing();
    const listing = await this.listing;
    // A failed listing is forgotten so the next call may succeed; its callers get the fallback meanwhile.
    if (!listing) this.listing = undefined;
    return listing?.get(modelId) ?? FALLBACK_CONTEXT_WINDOW;
  }

  private async fetchListing(): Promise<Map<string, number> | null> {
    const { baseUrl, config } = this.options;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
      const response = await this.options.fetch(`${baseUrl.replace(/\/$/, '')}/models`, { headers, signal: AbortSignal.timeout(config.requestTimeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as ModelsListBody;
      const windows = new Map<string, number>();
      for (const entry of body.data ?? []) {
        if (typeof entry.id === 'string' && typeof entry.context_length === 'number' && entry.context_length > 0) windows.set(entry.id, entry.context_length);
      }
      return windows;
    } catch (error) {
      this.options.logger?.warn({ err: (error as Error).message }, 'could not list models; using fallback context windows');
      return null;
    }
  }
}
