import { describe, expect, it } from 'vitest';
import { commandButtonRows, commandOfButton, rowsWithoutButton } from '../../../src/bot/command-buttons.ts';

const done = (number: number) => ({ label: `Done ${number}`, command: 'done', args: `${number}@0a1b2c3d`, then: 'steps' });

describe('command buttons', () => {
  it('pack command, arguments and the command that shows the message again into a custom id Discord hands back', () => {
    const [row] = commandButtonRows([done(2)]);
    const customId = row?.components[0] && 'custom_id' in row.components[0] ? row.components[0].custom_id : '';
    expect(customId).toBe('brainstorm:run:done:2@0a1b2c3d:steps');
    expect(commandOfButton(customId)).toEqual({ command: 'done', args: '2@0a1b2c3d', then: 'steps' });
    expect(commandOfButton('brainstorm:approve')).toBeNull();
    expect(commandOfButton('brainstorm:run:')).toBeNull();
  });

  it('fill rows of five, at most five rows, and leave out what cannot be packed (a colon, over 100 characters)', () => {
    expect(commandButtonRows([]).length).toBe(0);
    expect(commandButtonRows(Array.from({ length: 12 }, (_, index) => done(index + 1))).map((row) => row.components.length)).toEqual([5, 5, 2]);
    expect(commandButtonRows(Array.from({ length: 30 }, (_, index) => done(index + 1))).map((row) => row.components.length)).toEqual([5, 5, 5, 5, 5]);
    const unpackable = [
      { label: 'x', command: 'done', args: 'a:b' },
      { label: 'y', command: 'done', args: 'z'.repeat(90) },
    ];
    expect(commandButtonRows([...unpackable, done(1)]).flatMap((row) => row.components.map((button) => ('label' in button ? button.label : null)))).toEqual([
      'Done 1',
    ]);
  });

  it('take a pressed button off its message, and a row it leaves empty with it', () => {
    const rows = commandButtonRows(Array.from({ length: 6 }, (_, index) => done(index + 1)));
    const labels = (kept: typeof rows) => kept.map((row) => row.components.map((button) => ('label' in button ? button.label : null)));
    expect(labels(rowsWithoutButton(rows, 'brainstorm:run:done:2@0a1b2c3d:steps'))).toEqual([['Done 1', 'Done 3', 'Done 4', 'Done 5'], ['Done 6']]);
    expect(labels(rowsWithoutButton(rows, 'brainstorm:run:done:6@0a1b2c3d:steps'))).toEqual([['Done 1', 'Done 2', 'Done 3', 'Done 4', 'Done 5']]);
    expect(rowsWithoutButton(rows, 'brainstorm:approve')).toEqual(rows);
  });
});
