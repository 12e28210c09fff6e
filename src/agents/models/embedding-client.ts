import { APIError, type OpenAI } from 'openai';
import type { Logger } from '../../logging/logger.ts';

interface EmbeddingClientOptions {
  client: OpenAI;
  model: string;
  logger?: Logger;
}

const UNAVAILABLE_STATUSES = new Set([400, 404, 405, 501]);

/** Embeddings through the endpoint's `/embeddings`; remembers when the endpoint has none. */
export class EmbeddingClient {
  private unavailable = false;

  constructor(private readonly options: EmbeddingClientOptions) {}

  /** Vectors for `texts` in order, or null when embeddings are unavailable (permanently or for now). */
  async embed(texts: string[]): Promise<number[][] | null> {
    if (this.unavailable) return null;
    if (texts.length === 0) return [];
    try {
      const response = await this.options.client.embeddings.create({ model: this.options.model, input: texts, encoding_format: 'float' });
      const ordered = [...response.data].sort((left, right) => left.index - right.index);
      return ordered.map((entry) => entry.embedding);
    } catch (error) {
      const status = error instanceof APIError ? error.status : undefined;
      if (status !== undefined && UNAVAILABLE_STATUSES.has(status)) {
        this.unavailable = true;
        this.options.logger?.warn({ model: this.options.model, status }, 'embeddings unavailable; similarity falls back to text');
      } else {
        this.options.logger?.warn({ model: this.options.model, err: (error as Error).message }, 'embedding request failed');
      }
      return null;
    }
  }
}
