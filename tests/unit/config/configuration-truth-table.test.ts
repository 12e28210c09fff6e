import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentSchema } from '../../../src/config/env-schema.ts';
import { TUNABLE_SETTING_KEYS } from '../../../src/services/settings/tunable-settings.ts';

/** Each variable of the README's truth table with its `!config` column. */
function truthTable(): Map<string, string> {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.split('### Configuration truth table')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n').filter((row) => row.startsWith('| `'))) {
    const [variables = '', , mode = ''] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    for (const match of variables.matchAll(/`([A-Z_]+)`/g)) rows.set(match[1]!, mode.replace(/\*/g, ''));
  }
  return rows;
}

describe('the README configuration truth table', () => {
  it('lists every environment variable, "live" exactly for the keys !config accepts', () => {
    const table = truthTable();
    expect([...table.keys()].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
    const live = [...table].filter(([, mode]) => mode === 'live').map(([key]) => key);
    expect(live.sort()).toEqual([...TUNABLE_SETTING_KEYS].sort());
  });
});
