import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/config/load-config.ts';
import { BUILT_IN_PRESETS, loadPresets } from '../../../src/config/presets.ts';

function presetsFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'presets-')), 'presets.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const custom = { name: 'retrospective', title: 'Blameless retro', description: 'Our own retro.', flow: 'Facts first.', phases: ['Facts', 'Actions'] };

describe('session presets configuration', () => {
  it('has the four built-in presets without a file', () => {
    expect(loadPresets(undefined).map((preset) => preset.name)).toEqual(['product-ideas', 'architecture-decision', 'research-question', 'retrospective']);
  });

  it('adds the presets of PRESETS_FILE, and one named like a built-in replaces it', () => {
    const added = { ...custom, name: 'pair-review', title: 'Pair review' };
    const presets = buildConfig({ PRESETS_FILE: presetsFile([custom, added]) }).presets;
    expect(presets.map((preset) => preset.name)).toEqual([...BUILT_IN_PRESETS.map((preset) => preset.name), 'pair-review']);
    expect(presets.find((preset) => preset.name === 'retrospective')?.title).toBe('Blameless retro');
  });

  it('stops start-up with one line naming PRESETS_FILE for a bad file', () => {
    expect(() => loadPresets(presetsFile([{ ...custom, name: 'Not A Slug' }]))).toThrow(/^PRESETS_FILE: 0\.name /);
    expect(() => loadPresets(presetsFile('{oops'))).toThrow(/^PRESETS_FILE: cannot read/);
    expect(() => loadPresets(presetsFile([custom, custom]))).toThrow(/appears twice/);
    expect(() => loadPresets(presetsFile([{ ...custom, roles: ['cheerleader'] }]))).toThrow(/^PRESETS_FILE: 0\.roles\.0/);
  });
});
