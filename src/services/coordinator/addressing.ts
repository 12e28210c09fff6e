/**
 * Whom a person speaks to. "Grok, what would you cut?", "Claude and Grok: …", "@ChatGPT …", a later sentence that
 * opens so ("Billing is the risk. Grok, would a strangler fig help?") or a question that ends on a name ("what would
 * you cut, Grok?") asks those participants only, as people expect in a room of several assistants; a message that
 * names nobody (or only someone who cannot answer now) is for everyone.
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
  for (const sentence of text.split(SENTENCE_BREAK)) for (const name of leadingNames(sentence, byLower)) found.add(name);
  // "…, Grok?": one name closing a question. Not after a list ("Claude, ChatGPT and Grok?") nor a statement, where
  // a name closing a sentence is more often what was talked about ("we compared it with Claude, Grok.").
  for (const match of text.matchAll(/,\s*@?([\p{L}\p{N}_.-]+?)\s*\?/gu)) {
    const name = byLower.get((match[1] ?? '').toLowerCase());
    const before = text.slice(0, match.index);
    if (name && !/(?:^|[\s,])(?:and|&|\+)\s*$/i.test(before) && !namesAList(before, byLower)) found.add(name);
  }
  return names.filter((name) => found.has(name));
}

/** Where a sentence ends and the next begins (a greeting can open any of them). */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/;

/** True when the clause before a closing ", Name?" already names a participant just before it (a list of names). */
function namesAList(before: string, byLower: ReadonlyMap<string, string>): boolean {
  const lastWord = /@?([\p{L}\p{N}_.-]+)\s*$/u.exec(before)?.[1];
  return lastWord !== undefined && byLower.has(lastWord.toLowerCase());
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
