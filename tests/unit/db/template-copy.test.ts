import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyTemplate, removeAbandonedCopies } from '../../../src/db/template-copy.mjs';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A parent folder holding a data directory's place and the copies beside it. */
function parentWith(entries: string[]): string {
  const parent = mkdtempSync(join(tmpdir(), 'brainstorm-copies-'));
  made.push(parent);
  for (const entry of entries) {
    mkdirSync(join(parent, entry));
    writeFileSync(join(parent, entry, 'PG_VERSION'), '17');
  }
  return parent;
}

it('removes the copies a killed process left beside the data directory, and keeps those of live processes and of other directories', () => {
  const parent = parentWith(['data.seeding-111', 'data.seeding-222', 'other.seeding-111', 'data.seeding-x']);
  removeAbandonedCopies(join(parent, 'data'), (pid) => pid === 222);
  expect(readdirSync(parent).sort()).toEqual(['data.seeding-222', 'data.seeding-x', 'other.seeding-111']);
});

it('copies the template into place and leaves no copy of its own behind', () => {
  const parent = parentWith(['template', `data.seeding-${2 ** 22 + 7}`]);
  copyTemplate(join(parent, 'template'), join(parent, 'data'));
  expect(readdirSync(parent).sort()).toEqual(['data', 'template']);
  expect(readdirSync(join(parent, 'data'))).toEqual(['PG_VERSION']);
});
