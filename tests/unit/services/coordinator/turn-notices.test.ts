import { describe, expect, it } from 'vitest';
import { repeatsNotice, type RoundRepeat } from '../../../../src/services/coordinator/turn-notices.ts';

const claude: RoundRepeat = { participantId: 'claude', name: 'Claude', repeatOf: 13 };
const chatgpt: RoundRepeat = { participantId: 'chatgpt', name: 'ChatGPT', repeatOf: 14 };
const grok: RoundRepeat = { participantId: 'grok', name: 'Grok', repeatOf: 12 };
const none = new Set<string>();

describe('the room notice for a round of repeated answers', () => {
  it('names every repeater of the round in one notice', () => {
    const { text, announced } = repeatsNotice([claude, chatgpt, grok], { announced: none, answeredIds: none, personUnanswered: false });
    expect(text).toBe('Claude, ChatGPT and Grok repeated their own answers (#13, #14, #12), so they were not posted again.');
    expect([...announced]).toEqual(['claude', 'chatgpt', 'grok']);
    expect(repeatsNotice([grok], { announced: none, answeredIds: none, personUnanswered: false }).text).toBe(
      'Grok repeated its own answer #12, so it was not posted again.',
    );
  });

  it('says nothing of a participant the room already knows to repeat itself, until it answers again', () => {
    const known = new Set(['claude', 'grok']);
    expect(repeatsNotice([claude, grok], { announced: known, answeredIds: none, personUnanswered: false }).text).toBeNull();
    expect(repeatsNotice([claude, chatgpt], { announced: known, answeredIds: none, personUnanswered: false }).text).toBe(
      'ChatGPT repeated its own answer #14, so it was not posted again.',
    );
    // Claude answered in between: a later repeat of its is news again.
    const after = repeatsNotice([], { announced: known, answeredIds: new Set(['claude']), personUnanswered: false });
    expect([...after.announced]).toEqual(['grok']);
    expect(repeatsNotice([claude], { announced: after.announced, answeredIds: none, personUnanswered: false }).text).toMatch(/^Claude repeated/);
  });

  it('always answers a person whose message got nothing but repeats, with what they can do', () => {
    const known = new Set(['claude', 'chatgpt', 'grok']);
    const { text } = repeatsNotice([claude, chatgpt, grok], { announced: known, answeredIds: none, personUnanswered: true });
    expect(text).toBe(
      'Claude, ChatGPT and Grok repeated their own answers (#13, #14, #12), so they were not posted again. Nobody had anything new to add: ask something new, `!focus` on one point, or `!stop`.',
    );
  });

  it('tells a room with AI rounds that the repeaters sit them out until a person speaks', () => {
    expect(repeatsNotice([grok], { announced: none, answeredIds: none, personUnanswered: false, aiRounds: true }).text).toBe(
      'Grok repeated its own answer #12, so it was not posted again. It sits out the AI rounds until a person speaks.',
    );
    expect(repeatsNotice([claude, grok], { announced: none, answeredIds: none, personUnanswered: false, aiRounds: true }).text).toMatch(
      /so they were not posted again\. They sit out the AI rounds until a person speaks\.$/,
    );
    // A person who got nothing but repeats is told what to do instead: the whole room waits for them anyway.
    expect(repeatsNotice([grok], { announced: none, answeredIds: none, personUnanswered: true, aiRounds: true }).text).not.toContain('sits out');
  });

  it('posts nothing for a round without repeats', () => {
    expect(repeatsNotice([], { announced: none, answeredIds: new Set(['claude']), personUnanswered: false }).text).toBeNull();
  });
});
