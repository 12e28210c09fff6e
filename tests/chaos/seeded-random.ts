/** A chaos day's randomness: the same seed plays the same day. */

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
