import type { TiktokenBPE } from 'js-tiktoken/lite';

/**
 * Counts BPE tokens as js-tiktoken's encoder does, without its tables: js-tiktoken keeps every rank twice (a
 * comma-joined key and a byte array per token, ~150 MB for o200k); counting needs one map keyed by the token's
 * bytes as a Latin-1 string (~15 MB). The merges are the same, so the counts are equal.
 */
export class BpeTokenCount {
  private readonly ranks = new Map<string, number>();
  private readonly pattern: RegExp;

  constructor(bpe: TiktokenBPE) {
    this.pattern = new RegExp(bpe.pat_str, 'gu');
    for (const line of bpe.bpe_ranks.split('\n')) {
      const [, offsetText, ...tokens] = line.split(' ');
      if (offsetText === undefined) continue;
      const offset = Number.parseInt(offsetText, 10);
      tokens.forEach((token, index) => this.ranks.set(Buffer.from(token, 'base64').toString('latin1'), offset + index));
    }
  }

  /** Tokens of `text` (special tokens such as `<|endoftext|>` count as plain text). */
  count(text: string): number {
    let total = 0;
    for (const match of text.matchAll(this.pattern)) {
      const piece = Buffer.from(match[0], 'utf8').toString('latin1');
      total += this.ranks.has(piece) ? 1 : this.mergedParts(piece);
    }
    return total;
  }

  /** How many tokens a piece merges into: the lowest-ranked adjacent pair first, until no pair is a token. */
  private mergedParts(piece: string): number {
    const starts = Array.from({ length: piece.length + 1 }, (_, index) => index);
    while (starts.length > 2) {
      let best = -1;
      let bestRank = Number.POSITIVE_INFINITY;
      for (let index = 0; index < starts.length - 2; index += 1) {
        const rank = this.ranks.get(piece.slice(starts[index], starts[index + 2]));
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = index;
        }
      }
      if (best === -1) break;
      starts.splice(best + 1, 1);
    }
    return starts.length - 1;
  }
}
