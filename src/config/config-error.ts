import { BrainstormError } from '../core/errors.ts';

/** A configuration value that stops start-up; its message is one line naming the variable. */
export class ConfigError extends BrainstormError<'config_invalid'> {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super('config_invalid', `${variable}: ${detail}`);
    this.name = 'ConfigError';
  }

  /** True when `error` is a ConfigError, also across module copies. */
  static isConfigError(error: unknown): error is ConfigError {
    return BrainstormError.isFamily(error) && error.code === 'config_invalid';
  }
}
