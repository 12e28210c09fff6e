import { z } from 'zod';
import type { TokenPrice } from '../core/cost.ts';
import { ConfigError } from './config-error.ts';

/** One model's price as an admin writes it: US dollars per million tokens, as providers' price pages show them. */
const priceEntrySchema = z.strictObject({
  promptPerMillion: z.number().min(0),
  completionPerMillion: z.number().min(0),
});

const pricesSchema = z.record(z.string().min(1), priceEntrySchema);

/**
 * Parses `MODEL_PRICES`, e.g. `{"gpt-4o":{"promptPerMillion":2.5,"completionPerMillion":10}}`, into USD per token
 * by model id (the unit of OpenRouter's list). Empty: no prices.
 */
export function parseModelPrices(raw: string | undefined): Record<string, TokenPrice> {
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError('MODEL_PRICES', `not JSON: ${(error as Error).message}`);
  }
  const parsed = pricesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError('MODEL_PRICES', `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  return Object.fromEntries(
    Object.entries(parsed.data).map(([model, entry]) => [
      model,
      { prompt: entry.promptPerMillion / 1_000_000, completion: entry.completionPerMillion / 1_000_000 },
    ]),
  );
}
