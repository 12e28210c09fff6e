import { describe, expect, it } from 'vitest';
import { buildScribeInput, ensureEveryVoice, fallbackRecord } from '../../../../src/agents/scribe/scribe-input.ts';
import { findingsOf, parseTldrText, renderTldrMarkdown } from '../../../../src/agents/tldr/tldr-text.ts';

const at = new Date('2026-01-01T10:00:00Z');
const messages = [
  { id: 1, number: 1, speaker: { kind: 'human' as const, name: 'Ada' }, text: 'What about caching?', createdAt: at },
  { id: 2, number: 2, speaker: { kind: 'participant' as const, name: 'Claude' }, text: 'Edge caching with short TTLs.', createdAt: at },
  { id: 3, number: 3, speaker: { kind: 'participant' as const, name: 'GPT' }, text: 'Surrogate keys for invalidation.', createdAt: at },
];

describe('TLDR text fallback', () => {
  it('parses JSON wrapped in prose or fences', () => {
    const parsed = parseTldrText('Here you go:\n```json\n{"summary":"S","keyFindings":[{"finding":"F","sources":["#2"]}]}\n```');
    expect(parsed).toEqual({ summary: 'S', keyFindings: [{ finding: 'F', sources: ['#2'] }] });
  });

  it('parses a summary followed by bullets, keeping message references as sources, at most five', () => {
    const text =
      'Summary: the group compared caches.\n\nKey findings:\n- Edge caching wins (#2, [Claude])\n- Keys beat TTLs (#3)\n1. Stale reads matter (#1)\n- a\n- b\n- c';
    const parsed = parseTldrText(text);
    expect(parsed?.summary).toBe('the group compared caches.');
    expect(parsed?.keyFindings).toHaveLength(5);
    expect(parsed?.keyFindings[0]?.sources).toEqual(['#2', 'Claude']);
    expect(parseTldrText('no structure at all')).toBeNull();
  });

  it('renders findings that read back from the page', () => {
    const markdown = renderTldrMarkdown({
      summary: 'S',
      keyFindings: [
        { finding: 'A', sources: ['#1'] },
        { finding: 'B', sources: [] },
      ],
    });
    expect(findingsOf(markdown)).toEqual(['A (sources: #1)', 'B']);
  });
});

describe('Scribe input and fallbacks', () => {
  it('cites every message with its id and speaker', () => {
    const input = buildScribeInput({ topic: 'Caching', objectives: ['Pick a layer'] }, null, messages);
    expect(input).toContain('#1 [Ada (person)]: What about caching?');
    expect(input).toContain('#3 [GPT]: Surrogate keys for invalidation.');
  });

  it("names people's corrections to messages the record holds, and tells it to keep everything else", () => {
    const corrections = [
      { number: 1, speaker: { kind: 'human' as const, name: 'Ada' }, text: 'What about caching at the edge?' },
      { number: 4, speaker: { kind: 'human' as const, name: 'Bob' }, text: 'Our launch date.', deleted: true },
    ];
    const input = buildScribeInput({ topic: 'Caching', objectives: [] }, '# Record', [], corrections);
    expect(input).toContain('Previous record (keep everything in it, except what the corrections below take back)');
    expect(input).toContain('- #1 [Ada (person)] was edited by its author; it now says: What about caching at the edge?');
    expect(input).toContain('- #4 [Bob (person)] was deleted by its author: remove from the record whatever it took only from #4');
    expect(input).not.toContain('Our launch date.');
    expect(input).toContain('No new messages.');
    expect(buildScribeInput({ topic: 'Caching', objectives: [] }, '# Record', messages)).not.toContain('Corrections');
  });

  it('writes plain statistics when the model fails', () => {
    const record = fallbackRecord({ topic: 'Caching', objectives: [] }, messages, 'model down');
    expect(record).toContain('- Claude: 1 message');
    expect(record).toContain('- Messages: 3');
    expect(record).toContain('#2 [Claude]: Edge caching with short TTLs.');
  });

  it('adds the points of a participant the record left out', () => {
    const record = ensureEveryVoice('# Record\n- Ada asked; Claude answered.', messages);
    expect(record).toContain('GPT (#3): Surrogate keys for invalidation.');
    expect(ensureEveryVoice('Ada Claude GPT', messages)).toBe('Ada Claude GPT');
  });
});
