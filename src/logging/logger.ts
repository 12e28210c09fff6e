import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };

/** Replaces every known secret value in `text` with a marker. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('[redacted]');
  return result;
}

/** One JSON log line as a person reads it in a terminal: `09:41:07 INFO  message key=value`. */
export function readableLine(line: string): string {
  try {
    const { level, time, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
    const extras = Object.entries(fields)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    return `${clock} ${LEVEL_NAMES[Number(level)] ?? String(level)} ${String(msg ?? '')}${extras ? `  ${extras}` : ''}\n`;
  } catch {
    return line;
  }
}

/**
 * A structured logger that never writes a secret: known values are masked wherever they appear. JSON lines
 * for pipes and log shippers; readable lines when writing to a terminal.
 */
export function createLogger(options: { level: string; secrets: readonly string[]; destination?: NodeJS.WritableStream; readable?: boolean }): Logger {
  const destination = options.destination ?? process.stdout;
  const readable = options.readable ?? (destination === process.stdout && process.stdout.isTTY === true);
  const stream = {
    write(line: string) {
      const masked = redactSecrets(line, options.secrets);
      destination.write(readable ? readableLine(masked) : masked);
    },
  };
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: ['*.apiKey', '*.token', '*.authorization', '*.Authorization', 'headers.authorization'], censor: '[redacted]' },
    },
    stream,
  );
}
