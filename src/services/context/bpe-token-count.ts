import type { TiktokenBPE } from 'js-tiktoken/lite';

/** FNV-1a offset basis and prime (32-bit): a fast, well-spread hash of short byte strings. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Counts BPE tokens as js-tiktoken's encoder does, without its tables: js-tiktoken keeps every rank twice (a
 * comma-joined key and a byte array per token, ~150 MB for o200k), and a Map keyed by each token's bytes still
 * holds ~17 MB of small strings. Counting needs only "is this byte string a token, and of what rank": here the
 * tokens' bytes sit back to back in one buffer, found through an open-addressing hash table of typed arrays
 * (~5 MB for o200k, one object for the garbage collector instead of 200 000). The merges are the same, so the
 * counts are equal.
 */
export class BpeTokenCount {
  private readonly pattern: RegExp;
  /** Every token's bytes, back to back: token `index` is `bytes[starts[index]] .. bytes[starts[index + 1]]`. */
  private readonly bytes: Uint8Array;
  private readonly starts: Uint32Array;
  private readonly ranks: Uint32Array;
  /** Token index + 1 by hash slot (0: empty), linear probing. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Where a piece of text is encoded to UTF-8 (grown when a piece is longer). */
  private scratch = Buffer.alloc(1024);

  constructor(bpe: TiktokenBPE) {
    this.pattern = new RegExp(bpe.pat_str, 'gu');
    const lines = bpe.bpe_ranks.split('\n');
    let tokenCount = 0;
    let base64Length = 0;
    for (const line of lines) {
      const fields = line.split(' ');
      tokenCount += Math.max(0, fields.length - 2);
      base64Length += line.length;
    }
    const bytes = Buffer.alloc(Math.ceil((base64Length * 3) / 4));
    this.starts = new Uint32Array(tokenCount + 1);
    this.ranks = new Uint32Array(tokenCount);
    let token = 0;
    let end = 0;
    for (const line of lines) {
      const [, offsetText, ...tokens] = line.split(' ');
      if (offsetText === undefined) continue;
      const offset = Number.parseInt(offsetText, 10);
      tokens.forEach((text, index) => {
        this.starts[token] = end;
        this.ranks[token] = offset + index;
        end += bytes.write(text, end, 'base64');
        token += 1;
      });
    }
    this.starts[token] = end;
    this.bytes = new Uint8Array(bytes.subarray(0, end));
    let size = 1;
    while (size < tokenCount * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let index = 0; index < tokenCount; index += 1) this.insert(index);
  }

  /** Tokens of `text` (special tokens such as `<|endoftext|>` count as plain text). */
  count(text: string): number {
    let total = 0;
    for (const match of text.matchAll(this.pattern)) {
      const piece = match[0];
      if (this.scratch.length < piece.length * 3) this.scratch = Buffer.alloc(piece.length * 3);
      const length = this.scratch.write(piece, 0, 'utf8');
      total += this.rankOf(this.scratch, 0, length) !== -1 ? 1 : this.mergedParts(this.scratch, length);
    }
    return total;
  }

  /** How many tokens a piece merges into: the lowest-ranked adjacent pair first, until no pair is a token. */
  private mergedParts(piece: Uint8Array, length: number): number {
    const starts = Array.from({ length: length + 1 }, (_, index) => index);
    while (starts.length > 2) {
      let best = -1;
      let bestRank = Number.POSITIVE_INFINITY;
      for (let index = 0; index < starts.length - 2; index += 1) {
        const rank = this.rankOf(piece, starts[index]!, starts[index + 2]!);
        if (rank !== -1 && rank < bestRank) {
          bestRank = rank;
          best = index;
        }
      }
      if (best === -1) break;
      starts.splice(best + 1, 1);
    }
    return starts.length - 1;
  }

  /** The rank of the token whose bytes are `source[start..end)`, or -1 when they are no token. */
  private rankOf(source: Uint8Array, start: number, end: number): number {
    for (let slot = hashOf(source, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      if (this.equals(entry - 1, source, start, end)) return this.ranks[entry - 1]!;
    }
  }

  private equals(token: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[token]!;
    if (this.starts[token + 1]! - from !== end - start) return false;
    for (let offset = 0; offset < end - start; offset += 1) if (this.bytes[from + offset] !== source[start + offset]) return false;
    return true;
  }

  private insert(token: number): void {
    let slot = hashOf(this.bytes, this.starts[token]!, this.starts[token + 1]!) & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = token + 1;
  }
}

function hashOf(source: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ source[index]!, FNV_PRIME);
  return hash >>> 0;
}
