import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { routeConsoleToLogger } from '../../../src/logging/console-bridge.ts';
import { createLogger } from '../../../src/logging/logger.ts';

function capture(level = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, logger: createLogger({ level, secrets: ['sk-or-v1-sekret'], destination, readable: false }) };
}

describe('routeConsoleToLogger', () => {
  it("turns a library's console warnings and errors into log lines, secrets masked, until undone", () => {
    const { lines, logger } = capture();
    const printed: unknown[][] = [];
    const target = { warn: (...args: unknown[]) => void printed.push(args), error: (...args: unknown[]) => void printed.push(args) };
    const undo = routeConsoleToLogger(logger, target);
    target.warn('Accessed finalOutput before agent run is completed.');
    target.error('Invalid JSON when parsing: %s', '{"key":"sk-or-v1-sekret"');
    expect(printed).toEqual([]);
    const entries = lines.map((line) => JSON.parse(line) as { level: number; source: string; msg: string });
    expect(entries.map(({ level, source }) => [level, source])).toEqual([
      [40, 'console'],
      [50, 'console'],
    ]);
    expect(entries[0]?.msg).toBe('Accessed finalOutput before agent run is completed.');
    expect(entries[1]?.msg).toBe('Invalid JSON when parsing: {"key":"[redacted]"');
    undo();
    target.warn('back on the console');
    expect(printed).toEqual([['back on the console']]);
  });

  it('keeps to the log level: a silent logger prints nothing of it', () => {
    const { lines, logger } = capture('silent');
    const target = { warn: (..._args: unknown[]) => undefined, error: (..._args: unknown[]) => undefined };
    routeConsoleToLogger(logger, target);
    target.error('anything');
    expect(lines).toEqual([]);
  });
});
