import { OpenAIChatCompletionsModel, type Model } from '@openai/agents';
import type { AppConfig } from '../../config/app-config.ts';
import type { EndpointDialect } from '../../config/roster.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../../core/clock.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { RoleName } from '../../core/agent-context.ts';
import { CircuitBreaker, DEFAULT_BREAKER, type BreakerChange, type BreakerSettings, type BreakerStatus } from './circuit-breaker.ts';
import { EmbeddingClient } from './embedding-client.ts';
import { ImageSupport } from './image-support.ts';
import { EndpointLimiters, type EndpointQueueDepth } from './endpoint-limiters.ts';
import type { RateLimits } from './endpoint-rate-limiter.ts';
import { ContextWindows } from './context-windows.ts';
import { ModelListing } from './model-listing.ts';
import { PriceTable } from './price-table.ts';
import { OpenAIClientPool } from './openai-clients.ts';
import { ResilientModel } from './resilient-model.ts';
import { DEFAULT_RETRY, type RetrySettings } from './retry-policy.ts';

/** The model part of the configuration. */
export type ModelsConfig = AppConfig['models'];

/** A breaker change, with the participants and roles that use the model. */
export interface CatalogBreakerChange extends BreakerChange {
  modelId: string;
  participantIds: string[];
  roles: RoleName[];
}

/** What the catalog needs besides the configuration. */
export interface ModelCatalogOptions {
  clock: Clock;
  logger?: Logger;
  /** Used for `/models` and `/embeddings` and by every `openai` client (tests may count calls). */
  fetch?: typeof globalThis.fetch;
  /** Sends every model to this endpoint (tests: a fake that stands for every provider). */
  baseUrlOverride?: string;
  /** The demo simulator's URL: models marked `simulated` in the config (no key for their endpoint) go there. */
  simulatorUrl?: string;
  retry?: Partial<RetrySettings>;
  breaker?: Partial<BreakerSettings>;
}

interface Endpoint {
  modelId: string;
  baseUrl: string;
  apiKey: string | undefined;
  dialect: EndpointDialect;
}

const ROLE_NAMES: readonly RoleName[] = ['planner', 'moderator', 'scribe', 'tldr'];

/** Models reached only on keyless endpoints (a local Ollama): free or not, only the admin knows their price. */
function localModelIds(config: ModelsConfig): Set<string> {
  const entries = [...config.roster, ...Object.values(config.roles)];
  const keyless = (entry: (typeof entries)[number]) => entry.apiKey === undefined && !entry.simulated;
  const elsewhere = new Set(entries.filter((entry) => !keyless(entry)).map((entry) => entry.model));
  return new Set(entries.filter((entry) => keyless(entry) && !elsewhere.has(entry.model)).map((entry) => entry.model));
}

/** The tighter of a limit and a cap, where 0 (or no cap) means no limit. */
function tighter(limit: number, cap: number | undefined): number {
  if (cap === undefined || cap <= 0) return limit;
  return limit > 0 ? Math.min(limit, cap) : cap;
}

/**
 * Every model the app talks to: one resilient model and one breaker per model and endpoint, one client and one
 * rate limiter per endpoint.
 */
export class ModelCatalog {
  private readonly pool: OpenAIClientPool;
  private readonly models = new Map<string, ResilientModel>();
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly listeners = new Set<(change: CatalogBreakerChange) => void>();
  private readonly retry: RetrySettings;
  private readonly breakerSettings: BreakerSettings;
  private readonly windows: ContextWindows;
  private readonly embeddings: EmbeddingClient;
  private readonly listing: ModelListing;
  private readonly priceListing: ModelListing;
  /** Prices every model call that comes back without the provider's cost. */
  readonly prices: PriceTable;
  private readonly limiters: EndpointLimiters;
  /** Which participants' models are shown the images people share. */
  readonly images: ImageSupport;

  constructor(
    private readonly config: ModelsConfig,
    private readonly options: ModelCatalogOptions,
  ) {
    this.limiters = new EndpointLimiters(options.clock, (baseUrl) => this.limitsFor(baseUrl), options.logger);
    this.pool = new OpenAIClientPool({
      timeoutMs: config.requestTimeoutMs,
      onChatResponse: (baseUrl, response) => this.limiters.observe(baseUrl, response),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.breakerSettings = { ...DEFAULT_BREAKER, ...options.breaker };
    // Model metadata and embeddings come from OpenRouter when it has a key, else from the simulator if it runs.
    const baseUrl = options.baseUrlOverride ?? (config.apiKey || !options.simulatorUrl ? config.baseUrl : options.simulatorUrl);
    const listingOf = (url: string) =>
      new ModelListing({
        baseUrl: url,
        apiKey: config.apiKey,
        fetch: options.fetch ?? globalThis.fetch,
        timeoutMs: config.requestTimeoutMs,
        clock: options.clock,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    this.listing = listingOf(baseUrl);
    // Prices are OpenRouter's (its list needs no key); the simulator's list is made up, fine only for a demo.
    const priceUrl = options.baseUrlOverride ?? config.baseUrl;
    this.priceListing = config.demoMode || priceUrl === baseUrl ? this.listing : listingOf(priceUrl);
    this.windows = new ContextWindows(config, this.listing);
    this.images = new ImageSupport(this.listing, options.clock);
    this.prices = new PriceTable({ listing: this.priceListing, configured: config.prices, localModels: localModelIds(config) });
    this.embeddings = new EmbeddingClient({
      client: this.pool.clientFor(baseUrl, config.apiKey),
      model: config.embeddingModel,
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }

  /** The model of an enabled or disabled roster participant. */
  participant(participantId: string): Model {
    return this.modelFor(this.participantEndpoint(participantId));
  }

  /** The model of a role (planner, moderator, scribe, tldr). */
  role(role: RoleName): Model {
    return this.modelFor(this.roleEndpoint(role));
  }

  /** The model id behind a participant id or a role name. */
  modelIdFor(participantIdOrRole: string): string {
    return this.endpointFor(participantIdOrRole).modelId;
  }

  /** The context window of a model: the roster's value, else OpenRouter's `context_length`, else 128000. */
  contextWindow(modelId: string): Promise<number> {
    return this.windows.of(modelId);
  }

  /** Fetches the `/models` list (context windows, prices) in the background, so the first turns find it; never throws. */
  async warmUp(): Promise<void> {
    await Promise.all([this.listing.refresh(), this.priceListing.refresh()]);
  }

  /** Embeddings for texts, or null when the endpoint has no embedding model (remembered). */
  embed(texts: string[]): Promise<number[][] | null> {
    return this.embeddings.embed(texts);
  }

  /** The breaker status of a model at its endpoint, looked up by participant id, role name or model id. */
  breaker(id: string): BreakerStatus {
    if (this.isKnownName(id)) return this.breakerFor(this.endpointFor(id)).status();
    const existing = [...this.breakers.values()].find((breaker) => breaker.id === id);
    return (
      existing ?? this.breakerFor({ modelId: id, baseUrl: this.options.baseUrlOverride ?? this.config.baseUrl, apiKey: undefined, dialect: 'openrouter' })
    ).status();
  }

  /** How many model calls wait for each endpoint's rate-limit budget. */
  queueDepths(): EndpointQueueDepth[] {
    return this.limiters.depths();
  }

  /** Calls `listener` when any breaker opens, half-opens or closes; returns an unsubscribe function. */
  onBreakerChange(listener: (change: CatalogBreakerChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The ids of participants that use a model, at `baseUrl` when given (for announcing a benched seat). */
  participantsUsing(modelId: string, baseUrl?: string): string[] {
    return this.config.roster
      .filter((entry) => entry.model === modelId && (baseUrl === undefined || this.participantEndpoint(entry.id).baseUrl === baseUrl))
      .map((entry) => entry.id);
  }

  /** The configured pace, lowered by any roster entry on the endpoint that asks for less. */
  private limitsFor(baseUrl: string): RateLimits {
    const entries = this.config.roster.filter((entry) => this.endpointOf(entry).baseUrl === baseUrl);
    const { requestsPerMinute, tokensPerMinute } = this.config.rateLimits;
    return {
      requestsPerMinute: entries.reduce((limit, entry) => tighter(limit, entry.requestsPerMinute), requestsPerMinute),
      tokensPerMinute: entries.reduce((limit, entry) => tighter(limit, entry.tokensPerMinute), tokensPerMinute),
    };
  }

  private isKnownName(id: string): boolean {
    return ROLE_NAMES.includes(id as RoleName) || this.config.roster.some((entry) => entry.id === id);
  }

  private endpointFor(participantIdOrRole: string): Endpoint {
    if (ROLE_NAMES.includes(participantIdOrRole as RoleName)) return this.roleEndpoint(participantIdOrRole as RoleName);
    return this.participantEndpoint(participantIdOrRole);
  }

  private participantEndpoint(participantId: string): Endpoint {
    const entry = this.config.roster.find((candidate) => candidate.id === participantId);
    if (!entry) throw new BrainstormError('not_found', `No participant "${participantId}" in the roster.`);
    return this.endpointOf(entry);
  }

  private roleEndpoint(role: RoleName): Endpoint {
    return this.endpointOf(this.config.roles[role]);
  }

  /** The entry's own endpoint and key; the simulator's when the entry is simulated; the override's in tests. */
  private endpointOf(entry: { model: string; baseUrl: string; apiKey: string | undefined; dialect: EndpointDialect; simulated: boolean }): Endpoint {
    const simulated = entry.simulated && this.options.simulatorUrl !== undefined;
    const baseUrl = this.options.baseUrlOverride ?? (simulated ? (this.options.simulatorUrl ?? entry.baseUrl) : entry.baseUrl);
    return { modelId: entry.model, baseUrl, apiKey: entry.apiKey, dialect: simulated ? 'openrouter' : entry.dialect };
  }

  private modelFor(endpoint: Endpoint): ResilientModel {
    const key = `${endpoint.baseUrl}\u0000${endpoint.modelId}\u0000${endpoint.apiKey ?? ''}`;
    let model = this.models.get(key);
    if (!model) {
      const inner = new OpenAIChatCompletionsModel(this.pool.clientFor(endpoint.baseUrl, endpoint.apiKey), endpoint.modelId);
      model = new ResilientModel(inner, {
        modelId: endpoint.modelId,
        dialect: endpoint.dialect,
        clock: this.options.clock,
        breaker: this.breakerFor(endpoint),
        limiter: this.limiters.for(endpoint.baseUrl),
        retry: this.retry,
        timeoutMs: this.config.requestTimeoutMs,
        ...(this.options.logger ? { logger: this.options.logger } : {}),
      });
      this.models.set(key, model);
    }
    return model;
  }

  /** One breaker per model and endpoint: the same model id behind another gateway fails on its own. */
  private breakerFor(endpoint: Endpoint): CircuitBreaker {
    const key = `${endpoint.baseUrl}\u0000${endpoint.modelId}`;
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(endpoint.modelId, this.options.clock, this.breakerSettings, (change) => this.announce(change, endpoint.baseUrl));
      this.breakers.set(key, breaker);
    }
    return breaker;
  }

  private announce(change: BreakerChange, baseUrl: string): void {
    const roles = ROLE_NAMES.filter((role) => this.roleEndpoint(role).modelId === change.id && this.roleEndpoint(role).baseUrl === baseUrl);
    const enriched: CatalogBreakerChange = { ...change, modelId: change.id, participantIds: this.participantsUsing(change.id, baseUrl), roles };
    this.options.logger?.warn({ model: change.id, state: change.state, reason: change.reason }, 'model breaker changed');
    for (const listener of this.listeners) {
      try {
        listener(enriched);
      } catch (error) {
        this.options.logger?.error({ err: error }, 'breaker listener failed');
      }
    }
  }
}
