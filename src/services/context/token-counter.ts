import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { BpeTokenCount } from './bpe-token-count.ts';

/**
 * The o200k table is read on the first count, not at start-up (`count` is synchronous, hence sync I/O). The module
 * is `module.exports = {json}`: read as JSON, its 2 MB of text is garbage once the counter's own table is built;
 * `require` would keep it as the module's source for the life of the process.
 */
function o200k(): BpeTokenCount {
  const require = createRequire(import.meta.url);
  const path = require.resolve('js-tiktoken/ranks/o200k_base');
  const text = readFileSync(path, 'utf8');
  try {
    return new BpeTokenCount(JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as TiktokenBPE);
  } catch {
    // Another layout of the module in a later js-tiktoken: load it as code.
    return new BpeTokenCount(require(path) as TiktokenBPE);
  }
}

/**
 * Counts tokens with a BPE tokenizer (o200k) and learns, per model, how far the provider's reported prompt
 * tokens are from our estimate, so other vendors' tokenizers are approximated well after a few turns.
 */
export class TokenCounter {
  private encoder: BpeTokenCount | null = null;
  private readonly correction = new Map<string, number>();
  private readonly cache = new Map<string, number>();

  /** Raw tokenizer count of a text (cached for repeated texts such as stored messages). */
  count(text: string): number {
    const cached = this.cache.get(text);
    if (cached !== undefined) return cached;
    this.encoder ??= o200k();
    const tokens = this.encoder.count(text);
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(text, tokens);
    return tokens;
  }

  /** Count corrected for `model`. */
  countFor(model: string, text: string): number {
    return Math.ceil(this.count(text) * (this.correction.get(model) ?? 1));
  }

  /** Feeds back what the provider reported for a prompt we estimated (exponential moving average). */
  observe(model: string, estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return;
    const ratio = Math.min(3, Math.max(0.33, reported / estimated));
    const previous = this.correction.get(model) ?? 1;
    this.correction.set(model, previous * 0.7 + ratio * 0.3);
  }

  /** The current correction factor for a model (1 when nothing was observed). */
  correctionFor(model: string): number {
    return this.correction.get(model) ?? 1;
  }
}
