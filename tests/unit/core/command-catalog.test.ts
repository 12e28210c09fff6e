import { describe, expect, it } from 'vitest';
import { slashCommandDefinitions, subcommandArgs } from '../../../src/bot/slash-commands.ts';
import { COMMAND_CATALOG, commandSpec } from '../../../src/core/command-catalog.ts';

describe('one command table', () => {
  it('generates /brainstorm from the catalog, within Discord limits', () => {
    const [definition] = slashCommandDefinitions(['Claude', 'Grok']);
    const names = (definition?.options ?? []).map((option) => option.name);
    expect(names).toEqual(COMMAND_CATALOG.filter((command) => command.surfaces.slash).map((command) => command.name));
    for (const option of definition?.options ?? []) expect(option.description.length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(definition)).toContain('"Admin: Change a setting');
  });

  it("reads a subcommand's options in the catalog's order, as the ! command would take them", () => {
    const values: Record<string, string> = { setting: 'MAX_AI_RESPONSES_PER_TURN', value: '2' };
    expect(subcommandArgs('config', (name) => values[name] ?? null)).toBe('MAX_AI_RESPONSES_PER_TURN 2');
  });

  it('offers the presets as choices of an optional `preset:` option of /brainstorm start, passed on as `preset:<name>`', () => {
    const [definition] = slashCommandDefinitions(['Claude'], ['retrospective', 'pair-review']);
    const start = (definition?.options ?? []).find((option) => option.name === 'start');
    expect(JSON.stringify(start)).toContain('"name":"preset","description"');
    expect(start).toMatchObject({
      options: [
        { name: 'topic', required: true },
        { name: 'preset', required: false, choices: [{ value: 'retrospective' }, { value: 'pair-review' }] },
      ],
    });
    const values: Record<string, string> = { topic: 'Our sprint slipped', preset: 'retrospective' };
    expect(subcommandArgs('start', (name) => values[name] ?? null)).toBe('Our sprint slipped preset:retrospective');
    expect(subcommandArgs('start', (name) => (name === 'topic' ? 'Only a topic' : null))).toBe('Only a topic');
  });

  it('knows every command by name and refuses an unknown one', () => {
    expect(commandSpec('stop').usage).toBe('!stop');
    expect(() => commandSpec('nope')).toThrow(/command catalog/);
  });
});
