import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MarkdownMirror } from '../../../src/notion/markdown-mirror.ts';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

it('writes of one document at the same moment all succeed, the last asked for landing last, and leave no temp file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'brainstorm-mirror-'));
  directories.push(directory);
  const mirror = new MarkdownMirror(directory);
  const other = new MarkdownMirror(directory);
  await Promise.all([mirror.write('ses_a', 'record', 'one'), other.write('ses_a', 'record', 'two'), mirror.write('ses_a', 'record', 'three')]);
  expect(['two', 'three']).toContain(await mirror.read('ses_a', 'record'));
  await Promise.all(['a', 'b', 'c', 'd'].map((text) => mirror.write('ses_a', 'record', text)));
  expect(await mirror.read('ses_a', 'record')).toBe('d');
  expect(readdirSync(join(directory, 'docs', 'ses_a'))).toEqual(['record.md']);
});
