import { describe, expect, it } from 'vitest';
import { clipText, pairSafeEnd, shortenText } from '../../../src/core/text-clip.ts';
import { sessionRowProperties } from '../../../src/notion/session-row.ts';
import { eachCase, timed, wellFormed } from '../../support/adversarial-text.ts';

const EMOJI = '🚀';

describe('clipping text without halving an emoji', () => {
  it('steps back over a surrogate pair the limit would part, and nowhere else', () => {
    expect(pairSafeEnd(`ab${EMOJI}`, 3)).toBe(2);
    expect(pairSafeEnd(`ab${EMOJI}`, 4)).toBe(4);
    expect(pairSafeEnd('abcd', 3)).toBe(3);
    expect(pairSafeEnd('abc', 10)).toBe(3);
    expect(pairSafeEnd('abc', -1)).toBe(0);
    expect(clipText(`${EMOJI}${EMOJI}`, 3)).toBe(EMOJI);
    expect(clipText('short', 10)).toBe('short');
  });

  it('shortens with an ellipsis inside the limit, trimming the space before it', () => {
    expect(shortenText('one two three', 8)).toBe('one two…');
    expect(shortenText(`go ${EMOJI}!`, 5)).toBe('go…');
    expect(shortenText('fits', 4)).toBe('fits');
    expect(shortenText('abcdef', 1)).toBe('…');
  });

  it('keeps every well-formed text well-formed and within the limit, at every limit near an emoji', async () => {
    await eachCase((text, name) => {
      for (const limit of [1, 2, 3, 99, 100, 101, 1999, 2000]) {
        const clipped = timed(`clipText(${name})`, () => clipText(text, limit));
        const shortened = shortenText(text, limit);
        expect(clipped.length, name).toBeLessThanOrEqual(limit);
        expect(shortened.length, name).toBeLessThanOrEqual(Math.max(limit, 1));
        expect(text.startsWith(clipped), name).toBe(true);
        if (wellFormed(text))
          expect(
            [clipped, shortened].filter((cut) => !wellFormed(cut)),
            name,
          ).toEqual([]);
      }
    });
  });

  it('keeps a Notion session row’s topic and participant names well-formed when they are cut', () => {
    const properties = sessionRowProperties({
      topic: `${'x'.repeat(1999)}${EMOJI}`,
      status: 'active',
      conversationId: 'ses-1',
      participants: [`${'y'.repeat(99)}${EMOJI}`],
      started: null,
      messages: 0,
      tokens: 0,
      costUsd: 0,
      threadUrl: null,
    });
    expect(JSON.stringify(properties)).not.toMatch(/\\ud83d/i);
    expect(properties['Topic']).toEqual({ title: [{ text: { content: 'x'.repeat(1999) } }] });
    expect(properties['Participants']).toEqual({ multi_select: [{ name: 'y'.repeat(99) }] });
  });
});
