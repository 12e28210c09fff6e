/** A model the simulator lists, with OpenRouter-style pricing in US dollars per token. */
export interface SimulatedModel {
  id: string;
  name: string;
  context_length: number;
  pricing: { prompt: string; completion: string };
  /** What the model reads and writes ("text", "image", "file"), as OpenRouter lists it. */
  architecture?: { input_modalities: string[]; output_modalities: string[] };
}

const TEXT_AND_IMAGES = { input_modalities: ['text', 'image'], output_modalities: ['text'] };
const TEXT_ONLY = { input_modalities: ['text'], output_modalities: ['text'] };

/** The default roster's models (and the embedding model), as `/models` lists them. */
export const SIMULATED_MODELS: readonly SimulatedModel[] = [
  {
    id: 'anthropic/claude-sonnet-4',
    name: 'Anthropic: Claude Sonnet 4',
    context_length: 200_000,
    pricing: { prompt: '0.000003', completion: '0.000015' },
    architecture: TEXT_AND_IMAGES,
  },
  {
    id: 'openai/gpt-4o',
    name: 'OpenAI: GPT-4o',
    context_length: 128_000,
    pricing: { prompt: '0.0000025', completion: '0.00001' },
    architecture: TEXT_AND_IMAGES,
  },
  { id: 'x-ai/grok-3', name: 'xAI: Grok 3', context_length: 131_072, pricing: { prompt: '0.000003', completion: '0.000015' }, architecture: TEXT_ONLY },
  {
    id: 'openai/text-embedding-3-small',
    name: 'OpenAI: Text Embedding 3 Small',
    context_length: 8_192,
    pricing: { prompt: '0.00000002', completion: '0' },
    architecture: TEXT_ONLY,
  },
];

const DEFAULT_PRICING = { prompt: 0.000001, completion: 0.000002 };

/** Prices per token of a model; unknown models get a small default price. */
export function priceOf(modelId: string): { prompt: number; completion: number } {
  const model = SIMULATED_MODELS.find((entry) => entry.id === modelId);
  return model ? { prompt: Number(model.pricing.prompt), completion: Number(model.pricing.completion) } : DEFAULT_PRICING;
}

/** A rough, deterministic token count (about 4 characters a token). */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/** The cost of a request in US dollars, rounded to 10 decimals like OpenRouter's figures. */
export function costOf(modelId: string, promptTokens: number, completionTokens: number): number {
  const price = priceOf(modelId);
  return Math.round((promptTokens * price.prompt + completionTokens * price.completion) * 1e10) / 1e10;
}
