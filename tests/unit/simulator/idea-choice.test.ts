import { describe, expect, it } from 'vitest';
import { chooseIdea, timesNamed, WORN_AFTER } from '../../../src/simulator/idea-choice.ts';

const named = (idea: string, times: number) => Array.from({ length: times }, (_, index) => `[Claude]: try "${idea}" (${index})`).join('\n');

describe("a simulated participant's choice of idea", () => {
  it('counts an idea named in quotes, whatever its case', () => {
    expect(timesNamed('offline drafts', '[Grok]: "Offline drafts" again; "offline drafts" once more; offline drafts unquoted')).toBe(2);
  });

  it('takes up what the last speaker said while the room has named it less than often', () => {
    const choice = { heard: ['offline drafts'], fromTopic: ['sync conflicts', 'offline drafts'], seed: 7 };
    expect(chooseIdea({ ...choice, conversation: named('offline drafts', WORN_AFTER - 1) })).toBe('offline drafts');
  });

  it("moves on to the topic's least named phrase once the room has worn the last speaker's", () => {
    const conversation = [named('offline drafts', WORN_AFTER), named('sync conflicts', 1)].join('\n');
    const choice = { heard: ['offline drafts'], fromTopic: ['offline drafts', 'sync conflicts', 'battery life'], conversation };
    for (let seed = 0; seed < 6; seed += 1) expect(chooseIdea({ ...choice, seed })).toBe('battery life');
  });

  it('prefers phrases to single words: "rotation designs" says more than "burning"', () => {
    const choice = { heard: [], fromTopic: ['burning', 'rotation designs', 'on-call', 'pager alerts'], conversation: '' };
    const chosen = new Set(Array.from({ length: 8 }, (_, seed) => chooseIdea({ ...choice, seed })));
    expect([...chosen].sort()).toEqual(['on-call', 'pager alerts', 'rotation designs']);
  });

  it("takes a person's single word when it is all they offered that the room has not worn", () => {
    const choice = { heard: ['time zones', 'handover'], fromTopic: ['rotation designs'], conversation: named('time zones', WORN_AFTER), seed: 2 };
    expect(chooseIdea(choice)).toBe('handover');
  });

  it('offers nothing when neither the speaker nor the topic does', () => {
    expect(chooseIdea({ heard: [], fromTopic: [], conversation: '', seed: 3 })).toBeUndefined();
  });
});
