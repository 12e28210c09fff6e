/**
 * Secret scans of texts already read. A participant's input is the whole conversation, re-read on every turn by every
 * participant: scanning each message once and keeping its verdict makes the guardrail cost the new messages only.
 */
import { scanForSecrets, type SecretKind, type SecretScan } from './secret-patterns.ts';

/** How much text the cache keeps verdicts for before it forgets the oldest (about 4 MB of keys). */
const DEFAULT_CAPACITY_CHARS = 2_000_000;

/** Verdicts by text, oldest forgotten first once the texts kept exceed the capacity. */
export class SecretScanCache {
  private readonly verdicts = new Map<string, SecretScan>();
  private keptChars = 0;

  constructor(private readonly capacityChars = DEFAULT_CAPACITY_CHARS) {}

  /** The scan of `text` against `knownSecrets`, computed once per distinct pair while it stays in the cache. */
  scan(text: string, knownSecrets: readonly string[]): SecretScan {
    const key = knownSecrets.length === 0 ? text : `${knownSecrets.join('\u0000')}\u0001${text}`;
    const known = this.verdicts.get(key);
    if (known) return known;
    const verdict = scanForSecrets(text, knownSecrets);
    // A text longer than the whole cache is scanned every time rather than evicting everything else.
    if (key.length > this.capacityChars) return verdict;
    this.verdicts.set(key, verdict);
    this.keptChars += key.length;
    for (const oldest of this.verdicts.keys()) {
      if (this.keptChars <= this.capacityChars) break;
      this.verdicts.delete(oldest);
      this.keptChars -= oldest.length;
    }
    return verdict;
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
