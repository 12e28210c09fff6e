/** The model layer: resilient OpenRouter models, the catalog that builds them, usage accounting. */
export { ModelCatalog, type ModelCatalogOptions, type ModelsConfig, type CatalogBreakerChange } from './model-catalog.ts';
export { ResilientModel, type ResilientModelOptions } from './resilient-model.ts';
export { CircuitBreaker, DEFAULT_BREAKER, type BreakerState, type BreakerStatus, type BreakerChange, type BreakerSettings } from './circuit-breaker.ts';
export { DEFAULT_RETRY, classifyFailure, retryDelayMs, retryAfterMsFrom, type RetrySettings } from './retry-policy.ts';
export { ModelUnavailableError } from './model-errors.ts';
export { usageOf, responseUsage, providerCostOf, type RunUsage, type UsagePricing } from './usage.ts';
export { PriceTable, type PriceTableOptions, type FoundPrice } from './price-table.ts';
export { ModelListing, parseModelsList, type ListedModel } from './model-listing.ts';
export { stripJsonFence } from './output-fixes.ts';
export { OpenAIClientPool, PLACEHOLDER_API_KEY } from './openai-clients.ts';
export { FALLBACK_CONTEXT_WINDOW } from './context-windows.ts';
