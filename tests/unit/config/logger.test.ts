import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, readableLine } from '../../../src/logging/logger.ts';

function capture(readable: boolean) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', secrets: ['sekret-value-123'], destination, readable }) };
}

describe('createLogger', () => {
  it('masks known secrets wherever they appear, in JSON and readable output', () => {
    for (const readable of [false, true]) {
      const { lines, logger } = capture(readable);
      logger.info({ detail: 'key sekret-value-123 here', nested: { apiKey: 'anything' } }, 'called with sekret-value-123');
      expect(lines.join('')).not.toContain('sekret-value-123');
      expect(lines.join('')).toContain('[redacted]');
    }
  });

  it('prints a readable line for a person at a terminal', () => {
    expect(readableLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 9, 41, 7), msg: 'Brainstorm is ready', url: 'http://127.0.0.1:7420' }))).toBe(
      '09:41:07 INFO  Brainstorm is ready  url=http://127.0.0.1:7420\n',
    );
    expect(readableLine('not json\n')).toBe('not json\n');
  });
});
