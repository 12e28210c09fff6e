/**
 * Whom a person speaks to. "Grok, what would you cut?", "Claude and Grok: …" or "@ChatGPT …" asks those participants
 * only, as people expect in a room of several assistants; a message that names nobody (or only someone who cannot
 * answer now) is for everyone.
 */

/** The longest opening a greeting by name can take ("Claude, ChatGPT and Grok:"). */
const OPENING_LIMIT = 80;
const JOINERS = new Set(['and', '&', '+', 'also']);

/** The names among `names` that `text` addresses: a leading list of names before a comma or colon, and any @name. */
export function addressedNames(text: string, names: readonly string[]): string[] {
  const byLower = new Map(names.map((name) => [name.toLowerCase(), name]));
  const found = new Set<string>();
  for (const match of text.matchAll(/@([\p{L}\p{N}_.-]+)/gu)) {
    const name = byLower.get((match[1] ?? '').replace(/[.,:;!?]+$/, '').toLowerCase());
    if (name) found.add(name);
  }
  for (const name of leadingNames(text, byLower)) found.add(name);
  return names.filter((name) => found.has(name));
}

/** "Claude, ChatGPT and Grok: …" → all three: the opening segments (split at commas and colons) that hold names only. */
function leadingNames(text: string, byLower: ReadonlyMap<string, string>): string[] {
  const segments = text.slice(0, OPENING_LIMIT).split(/[,:]/);
  const names: string[] = [];
  // The last segment is the message itself (or cut by the limit): only those before it can be a greeting.
  for (const segment of segments.slice(0, -1)) {
    const words = segment.split(/\s+/).filter((word) => word !== '');
    const named = words.filter((word) => !JOINERS.has(word.toLowerCase())).map((word) => byLower.get(word.replace(/^@/, '').toLowerCase()));
    if (named.length === 0 || named.some((name) => name === undefined)) break;
    names.push(...named.filter((name): name is string => name !== undefined));
  }
  return names;
}
