/**
 * Secret scans of texts already read. A participant's input is the whole conversation, re-read on every turn by every
 * participant: scanning each message once and keeping its verdict makes the guardrail cost the new messages only.
 */
import { scanForSecrets, type SecretKind, type SecretScan } from './secret-patterns.ts';

/** How much text the cache keeps verdicts for before it forgets the oldest (about 4 MB of keys). */
const DEFAULT_CAPACITY_CHARS = 2_000_000;

/**
 * Verdicts by text for one set of known secrets (the process's configured keys), oldest forgotten first once the
 * texts kept exceed the capacity. Another set starts the cache afresh: keying every text by the set as well would
 * copy every text of every input at every lookup.
 */
export class SecretScanCache {
  private readonly verdicts = new Map<string, SecretScan>();
  private keptChars = 0;
  private secrets: { list: readonly string[]; key: string } = { list: [], key: '' };

  constructor(private readonly capacityChars = DEFAULT_CAPACITY_CHARS) {}

  /** The scan of `text` against `knownSecrets`, computed once per distinct pair while it stays in the cache. */
  scan(text: string, knownSecrets: readonly string[]): SecretScan {
    this.useSecrets(knownSecrets);
    const known = this.verdicts.get(text);
    if (known) return known;
    const verdict = scanForSecrets(text, knownSecrets);
    // A text longer than the whole cache is scanned every time rather than evicting everything else.
    if (text.length > this.capacityChars) return verdict;
    this.verdicts.set(text, verdict);
    this.keptChars += text.length;
    for (const oldest of this.verdicts.keys()) {
      if (this.keptChars <= this.capacityChars) break;
      this.verdicts.delete(oldest);
      this.keptChars -= oldest.length;
    }
    return verdict;
  }

  private useSecrets(knownSecrets: readonly string[]): void {
    if (knownSecrets === this.secrets.list) return;
    const key = knownSecrets.join('\u0000');
    if (key !== this.secrets.key) {
      this.verdicts.clear();
      this.keptChars = 0;
    }
    this.secrets = { list: knownSecrets, key };
  }

  /** How many verdicts are kept. */
  get size(): number {
    return this.verdicts.size;
  }
}

/** Scans every text (each a message of a conversation) and adds their verdicts up. */
export function scanTexts(texts: readonly string[], knownSecrets: readonly string[], cache?: SecretScanCache): SecretScan {
  const kinds = new Set<SecretKind>();
  let count = 0;
  for (const text of texts) {
    const verdict = cache ? cache.scan(text, knownSecrets) : scanForSecrets(text, knownSecrets);
    count += verdict.count;
    for (const kind of verdict.kinds) kinds.add(kind);
  }
  return { kinds: [...kinds], count };
}
