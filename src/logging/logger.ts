import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Replaces every known secret value in `text` with a marker. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('[redacted]');
  return result;
}

/** A structured logger that never writes a secret: known values are masked wherever they appear. */
export function createLogger(options: { level: string; secrets: readonly string[]; destination?: NodeJS.WritableStream }): Logger {
  const destination = options.destination ?? process.stdout;
  const stream = {
    write(line: string) {
      destination.write(redactSecrets(line, options.secrets));
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
