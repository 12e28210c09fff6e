import { describe, expect, it } from 'vitest';
import {
  doneButtons,
  nextStepLines,
  withShownStepTicked,
  nextStepsIn,
  stepKey,
  stepNamed,
  withStepMarked,
  withTicksKept,
} from '../../../src/core/next-steps.ts';

const RECORD = [
  '# Record',
  '- [x] a task line outside the section is no next step',
  '## Next steps',
  '- [ ] Pilot the async doc — Alice (#7)',
  '  * [X] Book the retro (#9)',
  'A line of prose between them.',
  '- [ ] Measure planning time',
  '### Notes',
  '- [ ] not a step either',
].join('\n');

describe("the record's next steps", () => {
  it('are the task lines under the heading, up to the next heading, ticked for [x] or [X]', () => {
    expect(nextStepsIn(RECORD)).toEqual([
      { action: 'Pilot the async doc — Alice (#7)', done: false },
      { action: 'Book the retro (#9)', done: true },
      { action: 'Measure planning time', done: false },
    ]);
    expect(nextStepsIn('# Record\n- [ ] no heading, no steps')).toEqual([]);
    expect(nextStepLines(nextStepsIn(RECORD))).toBe('☐ 1. Pilot the async doc — Alice (#7)\n☑ 2. Book the retro (#9)\n☐ 3. Measure planning time');
  });

  it('a step is marked by its number, changing its box alone; an unknown number changes nothing', () => {
    const marked = withStepMarked(RECORD, 3, true)!;
    expect(marked).toBe(RECORD.replace('- [ ] Measure', '- [x] Measure'));
    expect(withStepMarked(marked, 2, false)).toBe(marked.replace('* [X] Book', '* [ ] Book'));
    for (const number of [0, 4, 1.5, Number.NaN]) expect(withStepMarked(RECORD, number, true)).toBeNull();
  });

  it('a rewritten record keeps the ticks of the version before it, for the same actions, and opens nothing', () => {
    const rewritten = '# Record\n## Next steps\n- [ ] pilot the  async doc — Alice (#7)\n- [ ] Book the retro (#9)\n- [x] A step the Scribe closed';
    expect(withTicksKept(rewritten, RECORD)).toBe(
      '# Record\n## Next steps\n- [ ] pilot the  async doc — Alice (#7)\n- [x] Book the retro (#9)\n- [x] A step the Scribe closed',
    );
    expect(withTicksKept(rewritten, '# Record')).toBe(rewritten);
  });

  it('a ticked step the rewritten record left out goes back at the end of its list, or in a section of its own', () => {
    const dropped = '# Record\n## Next steps\n- [ ] Pilot the async doc — Alice (#7)\n- [ ] Measure planning time\n## Discussion flow\n- more';
    expect(withTicksKept(dropped, RECORD)).toBe(
      '# Record\n## Next steps\n- [ ] Pilot the async doc — Alice (#7)\n- [ ] Measure planning time\n- [x] Book the retro (#9)\n## Discussion flow\n- more',
    );
    expect(withTicksKept('# Record\n## Next steps\n## Flow', RECORD)).toBe('# Record\n## Next steps\n- [x] Book the retro (#9)\n## Flow');
    expect(withTicksKept('# Record\n## Flow\n- more', RECORD)).toBe('# Record\n## Flow\n- more\n\n## Next steps\n- [x] Book the retro (#9)\n');
  });

  it('a ticked step the Scribe reworded is ticked in its new words when only it cites the same messages', () => {
    const earlier = '## Next steps\n- [x] Pilot the async doc — Alice (#7)\n- [ ] Measure planning time (#9, #11)';
    const reworded = '## Next steps\n- [ ] Run a two-week pilot of the async planning doc — Alice (#7)\n- [ ] Measure planning time (#9, #11)';
    expect(withTicksKept(reworded, earlier)).toBe(reworded.replace('- [ ] Run', '- [x] Run'));
    expect(withTicksKept(reworded.replace('- [ ] Run', '- [x] Run'), earlier)).toBe(reworded.replace('- [ ] Run', '- [x] Run'));
    expect(withTicksKept(reworded.replace('(#7)', '( #7 )'), earlier)).toContain('- [x] Pilot the async doc');
  });

  it('a rewording that is not certain ticks nothing new: the ticked step goes back in its own words', () => {
    const cases = [
      // Two new steps cite the message.
      ['## Next steps\n- [ ] Pilot it (#7)\n- [ ] Write it up (#7)', '## Next steps\n- [x] Pilot the async doc — Alice (#7)'],
      // Two earlier steps cited it.
      ['## Next steps\n- [ ] Pilot it (#7)', '## Next steps\n- [x] Pilot the async doc — Alice (#7)\n- [ ] Another (#7)'],
      // No citation to go by.
      ['## Next steps\n- [ ] Pilot it', '## Next steps\n- [x] Pilot the async doc — Alice'],
    ];
    for (const [record, earlier] of cases) {
      const result = withTicksKept(record!, earlier!);
      expect(
        nextStepsIn(result)
          .filter((step) => step.done)
          .map((step) => step.action),
      ).toEqual([nextStepsIn(earlier!).find((step) => step.done)!.action]);
    }
  });

  it('a Done button is made for each open step, naming it by number and key, with the command that shows it after', () => {
    const steps = [
      { action: 'Pilot the doc — Ada', done: false },
      { action: 'Book the room — Bo', done: true },
      { action: 'Cap talks at ten minutes', done: false },
    ];
    expect(doneButtons(steps)).toEqual([
      { label: 'Done 1', command: 'done', args: `1@${stepKey('Pilot the doc — Ada')}` },
      { label: 'Done 3', command: 'done', args: `3@${stepKey('Cap talks at ten minutes')}` },
    ]);
    expect(doneButtons(steps, 'steps').map((button) => button.then)).toEqual(['steps', 'steps']);
    expect(stepNamed(steps, doneButtons(steps)[1]!.args)).toEqual({ number: 3 });
  });

  it('a step number out of range is named as typed: a 500-digit one is no "step Infinity"', () => {
    const steps = [{ action: 'Pilot the doc', done: false }];
    expect(stepNamed(steps, '4')).toEqual({ problem: 'There is no step 4: the record has 1 (see `!steps`).' });
    expect(stepNamed(steps, '9'.repeat(500))).toEqual({ problem: 'There is no step 999999…: the record has 1 (see `!steps`).' });
  });

  it('a shown list has the line of a pressed step ticked, and nothing else changed', () => {
    const shown = '**Next steps**\n☐ 1. Pilot the doc (#3)\n☑ 2. Book the room\n☐ 12. Cap talks';
    expect(withShownStepTicked(shown, 1)).toBe('**Next steps**\n☑ 1. Pilot the doc (#3)\n☑ 2. Book the room\n☐ 12. Cap talks');
    expect(withShownStepTicked(shown, 12)).toBe('**Next steps**\n☐ 1. Pilot the doc (#3)\n☑ 2. Book the room\n☑ 12. Cap talks');
    expect(withShownStepTicked(shown, 2)).toBeNull();
    expect(withShownStepTicked(shown, 3)).toBeNull();
  });
});
