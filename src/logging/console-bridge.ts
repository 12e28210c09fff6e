/**
 * What libraries print on the console, sent through our logger instead. The Agents SDK writes its warnings and errors
 * with console.warn/console.error (a paused run's output read, a handoff's unparseable arguments with the model's
 * text): on stderr they bypass the log level, the JSON lines a log shipper parses, and the masking of known secrets.
 */
import { format } from 'node:util';
import type { Logger } from './logger.ts';

type ConsoleMethod = 'warn' | 'error';

/** Routes console.warn and console.error to `logger` (as warn and error, marked `source: console`); returns the undo. */
export function routeConsoleToLogger(logger: Logger, target: Pick<Console, ConsoleMethod> = console): () => void {
  const original = { warn: target.warn, error: target.error };
  target.warn = (...args: unknown[]) => logger.warn({ source: 'console' }, format(...args));
  target.error = (...args: unknown[]) => logger.error({ source: 'console' }, format(...args));
  return () => {
    target.warn = original.warn;
    target.error = original.error;
  };
}
