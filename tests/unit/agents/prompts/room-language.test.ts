import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nextStepsIn } from '../../../../src/core/next-steps.ts';

const prompt = (name: string) => readFileSync(new URL(`../../../../prompts/${name}.txt`, import.meta.url), 'utf8');

describe('the room’s language', () => {
  it('every role that writes for people writes in the language the room writes in', () => {
    for (const name of ['participant', 'moderator', 'moderator-post', 'scribe-record', 'tldr-summary', 'planner'])
      expect(prompt(name), name).toMatch(/in the language (?:the people in the room write in|of the (?:discussion|topic))/);
  });

  it('the Scribe keeps its headings in English, and its "Next steps" heading is the one the bot reads ticks under', () => {
    const scribe = prompt('scribe-record');
    expect(scribe).toMatch(/keep the section headings above word for word, in English/);
    const headings = scribe.split('\n').filter((line) => line.startsWith('## '));
    const record = [...headings.map((heading) => `${heading}\nText.`), '- [x] Pilot the doc — Ada (#3)'].join('\n');
    expect(headings.at(-1)).toBe('## Next steps');
    expect(nextStepsIn(record)).toEqual([{ action: 'Pilot the doc — Ada (#3)', done: true }]);
  });
});
