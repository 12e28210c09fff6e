import { describe, expect, it } from 'vitest';
import { SpeakerHints } from '../../../../src/services/coordinator/speaker-hints.ts';

describe('SpeakerHints (the Moderator writes, the coordinator reads when it plans a round)', () => {
  it('keeps invitations and holds per session until a round is planned with them', () => {
    const hints = new SpeakerHints();
    hints.invite('s1', 'Grok');
    hints.invite('s1', 'Grok');
    hints.hold('s1', 'Claude');
    hints.invite('s2', 'GPT');
    expect(hints.current('s1')).toEqual({ invited: ['Grok'], held: ['Claude'] });
    // Reading does not spend them: a round that found no free seat plans again with the same hints.
    expect(hints.current('s1')).toEqual({ invited: ['Grok'], held: ['Claude'] });
    hints.spend('s1');
    expect(hints.current('s1')).toEqual({ invited: [], held: [] });
    expect(hints.current('s2')).toEqual({ invited: ['GPT'], held: [] });
  });
});
