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

  /**
   * How many tokens a piece merges into: the lowest-ranked adjacent pair first (the leftmost of equals), until no pair is a
   * token. The parts are a linked list and the pairs wait in a heap by (rank, offset): finding the pair by reading every
   * pair again after each merge was quadratic in the piece (143 s for 100,000 spaces, 9 s for 10,000 CJK characters).
   */
  private mergedParts(piece: Uint8Array, length: number): number {
    // The part starting at byte `offset` ends where `next[offset]` starts; `version` outdates the pairs queued for it.
    const next = Int32Array.from({ length: length + 1 }, (_, offset) => offset + 1);
    const previous = Int32Array.from({ length: length + 1 }, (_, offset) => offset - 1);
    const version = new Int32Array(length + 1);
    const pairs = new PairHeap();
    const queue = (offset: number): void => {
      version[offset]! += 1;
      const end = next[next[offset]!]!;
      if (end > length) return;
      const rank = this.rankOf(piece, offset, end);
      if (rank !== -1) pairs.push(rank, offset, version[offset]!);
    };
    for (let offset = 0; offset < length - 1; offset += 1) queue(offset);
    let parts = length;
    for (let pair = pairs.pop(); pair; pair = pairs.pop()) {
      if (pair.version !== version[pair.offset]) continue;
      const merged = next[pair.offset]!;
      next[pair.offset] = next[merged]!;
      if (next[merged]! <= length) previous[next[merged]!] = pair.offset;
      version[merged]! += 1;
      parts -= 1;
      queue(pair.offset);
      if (previous[pair.offset]! >= 0) queue(previous[pair.offset]!);
    }
    return parts;
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

/** A min-heap of candidate merges by rank, then by offset (the leftmost first, as the encoder takes them). */
class PairHeap {
  private readonly entries: { rank: number; offset: number; version: number }[] = [];

  push(rank: number, offset: number, version: number): void {
    const entries = this.entries;
    let index = entries.push({ rank, offset, version }) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(entries[index]!, entries[parent]!)) break;
      [entries[index], entries[parent]] = [entries[parent]!, entries[index]!];
      index = parent;
    }
  }

  pop(): { rank: number; offset: number; version: number } | undefined {
    const entries = this.entries;
    const top = entries[0];
    const last = entries.pop();
    if (top === undefined || last === undefined || entries.length === 0) return top;
    entries[0] = last;
    for (let index = 0; ;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let least = index;
      if (left < entries.length && this.before(entries[left]!, entries[least]!)) least = left;
      if (right < entries.length && this.before(entries[right]!, entries[least]!)) least = right;
      if (least === index) break;
      [entries[index], entries[least]] = [entries[least]!, entries[index]!];
      index = least;
    }
    return top;
  }

  private before(first: { rank: number; offset: number }, second: { rank: number; offset: number }): boolean {
    return first.rank < second.rank || (first.rank === second.rank && first.offset < second.offset);
  }
}

function hashOf(source: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ source[index]!, FNV_PRIME);
  return hash >>> 0;
}
