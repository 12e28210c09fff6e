/**
 * `npm run bench`: prints one JSON object per line, `{"name","value","unit"}`. Each group runs in a fresh
 * process (so memory and timings of one do not leak into another); `npm run bench -- session memory` runs some.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_V8_FLAGS } from '../scripts/runtime-flags.mjs';

const GROUPS = [
  'machine',
  'session',
  'memory',
  'memory-postgres',
  'memory-in-process',
  'memory-postgres-in-process',
  'discord',
  'notion',
  'moderator',
  'console',
  'ideas',
  'scale',
  'queries',
  'load',
  'load-postgres',
  'load-roles',
  'load-roles-postgres',
];
const asked = process.argv.slice(2);
// A typo ran every group (half an hour and more) instead of the one meant: a name that is not a group stops the run.
const unknown = asked.filter((name) => !GROUPS.includes(name));
if (unknown.length > 0) {
  const usage = asked.some((name) => name === '--help' || name === '-h') ? '' : `bench: no group ${unknown.map((name) => `'${name}'`).join(', ')}\n`;
  process.stderr.write(`${usage}usage: npm run bench [-- group ...]   (no group: all of them)\ngroups: ${GROUPS.join(', ')}\n`);
  process.exit(usage === '' ? 0 : 2);
}
const wanted = asked;
const failed: string[] = [];
// The groups' apps make data directories they never remove (the tests' helpers do, under vitest's own root): every
// temporary directory of this run goes under one, removed at its end.
const temporaryRoot = mkdtempSync(join(tmpdir(), 'brainstorm-bench-run-'));

for (const group of wanted.length > 0 ? wanted : GROUPS) {
  const child = spawnSync(process.execPath, [...RUNTIME_V8_FLAGS, '--import', 'tsx', new URL('./run-group.ts', import.meta.url).pathname, group], {
    env: { ...process.env, LOG_LEVEL: 'silent', TMPDIR: temporaryRoot },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = (child.stdout ?? '').split('\n').filter((line) => line.startsWith('{'));
  for (const line of lines) process.stdout.write(`${line}\n`);
  if (child.status !== 0) failed.push(group);
  if (child.status !== 0 && lines.length === 0) {
    process.stdout.write(
      `${JSON.stringify({ name: `${group}_error`, value: 0, unit: 'error', message: (child.stderr ?? '').split('\n').slice(-3).join(' ') })}\n`,
    );
  }
}
rmSync(temporaryRoot, { recursive: true, force: true });
// A group that failed still printed its `<group>_error` line among the figures; the exit status says so too, so a
// broken group is not read as a quiet one.
if (failed.length > 0) {
  process.stderr.write(`bench: ${failed.length} group(s) failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
