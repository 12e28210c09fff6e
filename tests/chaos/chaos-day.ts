/** A chaos day's randomness (the same seed plays the same day), and what its people say. */

/** A small seeded generator (mulberry32) of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, chosen by `random`. */
export function pickWith(random: () => number): <T>(items: readonly T[]) => T {
  return (items) => items[Math.floor(random() * items.length)]!;
}

/** The topics people bring. */
export const TOPICS = [
  'How should our team decide between Postgres and DynamoDB for billing?',
  'How can we make our weekly planning meeting shorter?',
  'What should the first version of our onboarding emails say?',
  'Should we split the checkout service out of the monolith?',
];

/** What people say in the rooms. */
export const SAYINGS = [
  'What would you cut first?',
  'Claude, what is the riskiest part?',
  'I think we should start small and measure.',
  'Grok, argue the other side please.',
  'Who would own this?',
  'Can we do it within two weeks?',
];

/** The flags every chaos day takes (see `npm run chaos`): the engine, the models, its size, its seed and its kills. */
export const DAY_OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  engine: { type: 'string', default: 'pglite' },
  models: { type: 'string', default: 'demo' },
  rooms: { type: 'string', default: '3' },
  rounds: { type: 'string', default: '8' },
  seed: { type: 'string', default: '1' },
  kill: { type: 'string', default: '0.4' },
} as const;

/**
 * The options of a chaos run's command line (`parseArgs`'s), or its usage: on `--help` (exit 0), or after an option it
 * does not know (exit 2; parseArgs's own error was a stack trace).
 */
export function readDayOptions<T>(parse: () => T & { help?: boolean }, usage: string): T {
  try {
    const options = parse();
    if (!options.help) return options;
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exit(2);
  }
}
