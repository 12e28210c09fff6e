/** The unit tests mirror `src/`: each test folder names a source folder, so a test is found next to its code. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function folders(base: string): string[] {
  return readdirSync(base)
    .map((name) => join(base, name))
    .filter((path) => statSync(path).isDirectory())
    .flatMap((path) => [path, ...folders(path)]);
}

describe('tests/unit layout', () => {
  it('has no folder without a source folder of the same path under src/', () => {
    const unit = join(root, 'tests', 'unit');
    const strays = folders(unit)
      .map((path) => relative(unit, path))
      .filter((path) => {
        try {
          return !statSync(join(root, 'src', path)).isDirectory();
        } catch {
          return true;
        }
      });
    expect(strays).toEqual([]);
  });
});
