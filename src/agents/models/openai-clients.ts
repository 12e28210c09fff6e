import OpenAI from 'openai';

/** The key sent to a keyless endpoint (the demo simulator, a local Ollama): never a real secret. */
export const PLACEHOLDER_API_KEY = 'sk-demo';

/** Options for every client the pool builds. */
export interface ClientPoolOptions {
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

/** One `openai` client per (base URL, API key); retries are off because the model layer retries itself. */
export class OpenAIClientPool {
  private readonly clients = new Map<string, OpenAI>();

  constructor(private readonly options: ClientPoolOptions) {}

  /** The client for an endpoint, built once. */
  clientFor(baseUrl: string, apiKey: string | undefined): OpenAI {
    const key = apiKey || PLACEHOLDER_API_KEY;
    const cacheKey = `${baseUrl}\u0000${key}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      client = new OpenAI({
        baseURL: baseUrl,
        apiKey: key,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      this.clients.set(cacheKey, client);
    }
    return client;
  }

  /** How many distinct clients exist (one per endpoint and key). */
  get size(): number {
    return this.clients.size;
  }
}
