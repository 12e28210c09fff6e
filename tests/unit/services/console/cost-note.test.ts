/** The console says where a cost came from, and never shows an unknown cost as a price. */
import { describe, expect, it } from 'vitest';
import { costNote, costSourceLabel } from '../../../../src/services/console/cost-note.ts';

describe('cost note', () => {
  it('names the provider when every call carried its cost', () => {
    expect(costNote([{ model: 'openai/gpt-4o', costSource: 'provider', generations: 3, costUsd: 0.0123 }])).toEqual({
      text: 'provider',
      sources: ['provider'],
      unknownModels: [],
    });
  });

  it('joins the sources of a mixed session and names each model whose cost is unknown', () => {
    const note = costNote([
      { model: 'llama3.1', costSource: 'unknown', generations: 4, costUsd: 0 },
      { model: 'gpt-4o', costSource: 'price_table', generations: 2, costUsd: 0.4 },
      { model: 'anthropic/claude-sonnet-4', costSource: 'provider', generations: 5, costUsd: 0.1 },
      { model: 'old', costSource: null, generations: 1, costUsd: 0.01 },
    ]);
    expect(note).toEqual({
      text: 'provider + estimated from price table; unknown for model llama3.1',
      sources: ['provider', 'price_table', 'unknown'],
      unknownModels: ['llama3.1'],
    });
  });

  it('is absent when no call recorded a source (rows from before sources were kept)', () => {
    expect(costNote([{ model: 'x', costSource: null, generations: 1, costUsd: 0.2 }])).toBeNull();
    expect(costNote([])).toBeNull();
  });

  it('labels one source, naming the model whose cost is unknown', () => {
    expect(costSourceLabel('config')).toBe('configured price');
    expect(costSourceLabel('unknown', 'llama3.1')).toBe('unknown for model llama3.1');
  });
});
