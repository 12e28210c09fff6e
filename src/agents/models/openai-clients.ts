import OpenAI from 'openai';

/** The key sent to a keyless endpoint (the demo simulator, a local Ollama): never a real secret. */
export const PLACEHOLDER_API_KEY = 'sk-demo';

/** Options for every client the pool builds. */
export interface ClientPoolOptions {
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  /** Sees every response of a chat completion (its headers carry the provider's rate-limit budget). */
  onChatResponse?: (baseUrl: string, response: Response) => void;
}

/** Wraps fetch so chat completion responses reach `observe` before the client reads them. */
function observingFetch(base: typeof globalThis.fetch, baseUrl: string, observe: (baseUrl: string, response: Response) => void): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith('/chat/completions')) observe(baseUrl, response);
    return response;
  };
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
      const { fetch, onChatResponse } = this.options;
      // Read at call time: a test may stub the global fetch after the client was built.
      const base: typeof globalThis.fetch = fetch ?? ((input, init) => globalThis.fetch(input, init));
      client = new OpenAI({
        baseURL: baseUrl,
        apiKey: key,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        ...(onChatResponse ? { fetch: observingFetch(base, baseUrl, onChatResponse) } : fetch ? { fetch } : {}),
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
