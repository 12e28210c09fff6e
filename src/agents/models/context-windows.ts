import type { AppConfig } from '../../config/app-config.ts';
import type { ModelListing } from './model-listing.ts';

/** The window assumed when neither the roster nor the endpoint knows better. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/** Context windows per model id: roster first, then the endpoint's `/models` list (shared, fetched once), then a fallback. */
export class ContextWindows {
  constructor(
    private readonly config: AppConfig['models'],
    private readonly listing: ModelListing,
  ) {}

  /** The context window of `modelId` in tokens. */
  async of(modelId: string): Promise<number> {
    const configured = this.config.roster.find((entry) => entry.model === modelId && entry.contextWindow)?.contextWindow;
    if (configured) return configured;
    const listing = await this.listing.get();
    return listing?.get(modelId)?.contextLength ?? FALLBACK_CONTEXT_WINDOW;
  }
}
