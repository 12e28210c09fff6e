/** A configuration value that stops start-up; its message is one line naming the variable. */
export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
    this.name = 'ConfigError';
  }

  /** True when `error` is a ConfigError, also across module copies. */
  static isInstance(error: unknown): error is ConfigError {
    return error instanceof Error && (error as { code?: unknown }).code === 'config_invalid';
  }
}
