import { randomBytes } from 'node:crypto';

/** Makes identifiers; injected so tests get predictable ones. */
export interface IdGenerator {
  next(prefix: string): string;
}

/** Random, URL-safe identifiers such as `ses_3k9f...`. */
export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBytes(9).toString('base64url')}`,
};

/** Sequential identifiers for tests: `ses_1`, `ses_2`, ... */
export function sequentialIds(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const value = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, value);
      return `${prefix}_${value}`;
    },
  };
}
