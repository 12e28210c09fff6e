import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from '../../../src/core/database-unreachable.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { OutageLog } from '../../../src/logging/outage-log.ts';

function capture(): { lines: { level: number; msg: string }[]; log: OutageLog } {
  const lines: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { lines, log: new OutageLog(createLogger({ level: 'info', secrets: [], destination }), 'the job worker') };
}

const away = () => new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });

describe('OutageLog', () => {
  it('says once that the database is away and once that it is back, however many tries fail between', () => {
    const { lines, log } = capture();
    for (let attempt = 0; attempt < 30; attempt += 1) log.failed(away(), 'error', 'job worker could not claim jobs');
    log.succeeded();
    log.succeeded();
    expect(lines.map((line) => line.msg)).toEqual([
      'the job worker: the database is unreachable; trying again every second until it is back',
      'the job worker: the database answers again',
    ]);
    expect(lines[0]?.level).toBe(40);
  });

  it('logs every other failure as it comes, at the level asked', () => {
    const { lines, log } = capture();
    log.failed(new Error('a bug'), 'error', 'job worker could not claim jobs');
    log.failed(new Error('a bug'), 'error', 'job worker could not claim jobs');
    log.succeeded();
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [50, 'job worker could not claim jobs'],
      [50, 'job worker could not claim jobs'],
    ]);
  });
});
