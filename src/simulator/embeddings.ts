import { createHash } from 'node:crypto';

/** Dimensions of simulated embeddings. */
export const EMBEDDING_DIMENSIONS = 256;

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have how i if in into is it its of on or our so that the their them then there these they this to was we were what when which who why will with you your'.split(
    ' ',
  ),
);

/** Crude stemming so "plans", "planning" and "planned" land on one bucket. */
function stem(word: string): string {
  return word.replace(/(ing|ed|es|s|ly|er|ment)$/u, '').slice(0, 12);
}

function bucketOf(token: string): { index: number; sign: number } {
  const digest = createHash('sha256').update(token).digest();
  return { index: digest.readUInt16BE(0) % EMBEDDING_DIMENSIONS, sign: (digest[2] ?? 0) % 2 === 0 ? 1 : -1 };
}

/**
 * A deterministic embedding that carries meaning: a hashed bag of stemmed words (and word pairs), normalised,
 * so that texts sharing vocabulary are closer than unrelated ones.
 */
export function embedText(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word)).map(stem);
  words.forEach((word, index) => {
    const single = bucketOf(word);
    vector[single.index] = (vector[single.index] ?? 0) + single.sign;
    const next = words[index + 1];
    if (next) {
      const pair = bucketOf(`${word} ${next}`);
      vector[pair.index] = (vector[pair.index] ?? 0) + pair.sign * 0.5;
    }
  });
  const length = Math.hypot(...vector);
  if (length === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / length);
}

/** Encodes a vector the way OpenAI's `encoding_format: "base64"` does (little-endian float32). */
export function toBase64Embedding(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
