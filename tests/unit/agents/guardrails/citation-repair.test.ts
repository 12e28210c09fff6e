import { describe, expect, it } from 'vitest';
import { repairCitations } from '../../../../src/agents/guardrails/citation-repair.ts';

const messages = [
  { number: 3, text: 'Put Redis in front of the public API and cache for five minutes.' },
  { number: 4, text: 'Invalidate the cache on every write to the catalogue.' },
];

describe('repairCitations', () => {
  it('keeps sources that are messages or speakers, drops ids that do not exist and sources that are neither', () => {
    const repaired = repairCitations(
      {
        summary: 'Cache, and invalidate on writes.',
        keyFindings: [
          { finding: 'Redis in front of the API', sources: ['Claude', '#3', '#999'] },
          // A model that fills the schema without reading it: no message, no speaker.
          { finding: 'Invalidate the cache on writes', sources: ['sources 1 about the record', 'sources 2 about the record'] },
        ],
      },
      messages,
      ['Claude', 'ChatGPT'],
    );
    expect(repaired.keyFindings).toEqual([
      { finding: 'Redis in front of the API', sources: ['Claude', '#3'] },
      { finding: 'Invalidate the cache on writes', sources: ['#4'] },
    ]);
  });
});
