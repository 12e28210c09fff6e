import { functionTools, messageText, type AgentIdentity, type ChatCompletionRequest, type ChatMessageBody } from './chat-types.ts';

const ROLE_LINES: Record<string, 'planner' | 'moderator' | 'scribe' | 'tldr' | 'ideas'> = {
  'You are the Planner of a Brainstorm session.': 'planner',
  'You are the Moderator of a Brainstorm session.': 'moderator',
  'You are the Scribe of a Brainstorm session.': 'scribe',
  'You are the TLDR of a Brainstorm session.': 'tldr',
  'You are the Idea Extractor of a Brainstorm session.': 'ideas',
};

const ROLE_NAMES = { planner: 'Planner', moderator: 'Moderator', scribe: 'Scribe', tldr: 'TLDR', ideas: 'Idea Extractor' } as const;

/** The system instructions of a request (system and developer messages joined). */
export function systemText(body: ChatCompletionRequest): string {
  return body.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(messageText)
    .join('\n');
}

/** Who is asking, from the first line of the instructions (the fixed agent protocol). */
export function identify(body: ChatCompletionRequest): AgentIdentity {
  const firstLine = systemText(body).trimStart().split('\n')[0]?.trim() ?? '';
  const role = ROLE_LINES[firstLine];
  if (role) return { role, name: ROLE_NAMES[role] };
  const participant = /^You are (.+?), a participant in a Brainstorm session\.$/.exec(firstLine);
  if (participant?.[1]) return { role: 'participant', name: participant[1] };
  return { role: 'unknown', name: body.model };
}

/** The name of the tool a tool-result message answers. */
export function toolNameOf(body: ChatCompletionRequest, message: ChatMessageBody): string | undefined {
  for (const candidate of body.messages) {
    const call = candidate.tool_calls?.find((entry) => entry.id === message.tool_call_id);
    if (call) return call.function.name;
  }
  return undefined;
}

/** The names of the tools a request offers. */
export function offeredTools(body: ChatCompletionRequest): string[] {
  return functionTools(body).map((tool) => tool.function.name);
}

const STOP_WORDS = new Set(
  'about across after again also among another around because been before being between both could does doing down during each even every from further have having here into itself just more most much must other over same should some such than that their them then there these they this those through under until very what when where which while will with within without would your yours yourself topic answers simulated make move take want need like using going good best better thing things ways instead rather maybe really still only already quite perhaps mostly usually often always never sometimes sounds sound looks look seems seem feels feel said says think thinks promising great nice interesting decide deciding choose choosing build building create creating improve improving start starting ship shipping slip slips launch adopt hire switch migrate reduce increase scale grow rewrite replace avoid convert converting retain sell selling slow slowing keep keeping burn burning stop stopping pick picking fair today tomorrow tonight yesterday owns owned runs running working trying moving split splitting merge merging help helps fail fails failing drown drowns drowning struggle struggles struggling inside outside faster quicker cheaper slower easier harder smaller shorter longer simpler bigger safer clearer leaner lighter sooner later attend attends attending told tell tells telling matter matters mattered'.split(
    ' ',
  ),
);

/** Nouns of three letters that head a topic's phrases ("mobile app", "web app"); other short words are no content. */
const SHORT_NOUNS = new Set(['app', 'web', 'bot', 'api', 'ops', 'ads', 'job', 'tax', 'law', 'art']);

/** `text` on one line, cut at a word boundary to at most `length` characters (with an ellipsis when cut). */
export function shortened(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), length / 2))}…`;
}

/**
 * The topic of the session: a `Topic:` line (or the record heading's) if there is one, else the first person's message;
 * at most `length` characters (200: what a line quotes of it).
 */
export function topicOf(body: ChatCompletionRequest, length = 200): string {
  const texts = [systemText(body), ...body.messages.filter((message) => message.role === 'user').map(messageText)];
  for (const text of texts) {
    // The TLDR reads the Scribe's record, whose heading carries the topic.
    const match = /(?:^|\n)\s*(?:Expanded topic|Topic|#\s*Detailed record)\s*:\s*(.+)/i.exec(text);
    if (match?.[1]) return shortened(match[1], length);
  }
  const firstUser = body.messages.find((message) => message.role === 'user');
  return shortened((firstUser ? messageText(firstUser) : '').replace(/^\[[^\]]+\]:\s*/, ''), length) || 'the topic';
}

/** The most telling words of a text, in order of first appearance. */
export function keywordsOf(text: string, count: number): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]{3,}/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
  return [...new Set(words)].slice(0, count);
}

/**
 * The most telling phrases of a text, as typed: the last two words of each run of content words, where English puts a
 * phrase's head ("How should a 6-person team run weekly planning without it eating Monday morning?" gives "6-person
 * team", "weekly planning", "Monday morning"). A run breaks at punctuation and at short or common words (common verbs
 * such as "decide" or "ship" too, while a short noun such as "app" heads one); acronyms (B2B, API) count. Two-word
 * phrases come first, then names (capitalised inside the text), then single words.
 */
export function keyPhrasesOf(text: string, count: number): string[] {
  const runs: { words: string[]; at: number }[] = [{ words: [], at: 0 }];
  const tokens = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*|[^\s\p{L}\p{N}]+/gu) ?? [];
  tokens.forEach((token, index) => {
    const word = token.toLowerCase();
    const acronym = /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(token) || (/\p{N}/u.test(token) && /\p{L}/u.test(token));
    const content = /^[\p{L}\p{N}]/u.test(token) && ((word.length > 3 && !STOP_WORDS.has(word)) || SHORT_NOUNS.has(word) || acronym);
    const run = runs.at(-1);
    // A sentence's first word is capitalised as a sentence's, not as a name's.
    const opensSentence = index === 0 || /[.!?:]$/.test(tokens[index - 1] ?? '');
    if (content && run) run.words.push(opensSentence && !acronym ? word : token);
    if (content && run?.words.length === 1) run.at = index;
    if (!content && run?.words.length) runs.push({ words: [], at: 0 });
  });
  const rank = (run: { words: string[]; at: number }) => (run.words.length > 1 ? 0 : run.at > 0 && /^\p{Lu}/u.test(run.words[0] ?? '') ? 1 : 2);
  const seen = new Set<string>();
  return runs
    .filter((run) => run.words.length > 0)
    .sort((left, right) => rank(left) - rank(right))
    .map((run) => run.words.slice(-2).join(' '))
    .filter((phrase) => !seen.has(phrase.toLowerCase()) && seen.add(phrase.toLowerCase()))
    .slice(0, count);
}

const TIME_NAMES =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/** A phrase as the subject of a sentence ("for the weekly planning", "for the CLI tool", "for Lisbon"), or `fallback`. */
export function subjectOf(phrase: string | undefined, fallback: string): string {
  if (!phrase) return fallback;
  // A name takes no article ("Lisbon", "New York"), nor a time ("Monday morning"); a name or an acronym before a noun
  // ("Rails monolith", "CLI tool", "AWS bill") is none.
  const words = phrase.split(/\s+/);
  const named = words.every((word) => /^\p{Lu}/u.test(word)) || (words.length > 1 && TIME_NAMES.test(words[0] ?? ''));
  return named ? phrase : `the ${phrase}`;
}

/** One attributed statement found in a conversation. */
export interface Statement {
  speaker: string;
  text: string;
  reference: string | undefined;
  /** Said by a person (`[Ana (person)]`), not a model. */
  person?: boolean;
}

const STATEMENT = /^\s*(?:[-*]\s*)?(#\d+)?\s*\[([^\]\n]{1,60}?)(\s*\((?:person|human|[^)]{0,20})\))?\]\s*:\s+(.+)$/u;
// Lines that end a statement instead of continuing it: headings and the section labels of an agent's input.
// The wrap-up's steps and the extractor's request follow the last message: without a break they were read as its next lines.
const SECTION_BREAK =
  /^\s*(?:#{1,6}\s|(?:New messages|Previous record|There is no previous record|Write the complete|Earlier messages|Ideas by|The wrap-up is a hand-off chain|Extract the ledger entries)\b[^\n]{0,200}$)/i;

/** True for an answer cut off mid-sentence: the room marks it `— *(interrupted)*`, and its end says nothing finished. */
export function wasCutShort(statement: Statement): boolean {
  return /\*\(interrupted\)\*\s*$/.test(statement.text);
}

/**
 * Statements of the form `[Name]: text` or `#12 [Name (person)]: text`, across every non-system message; the
 * lines after one (a message of several lines) belong to it until the next statement or section.
 */
export function statementsOf(body: ChatCompletionRequest): Statement[] {
  return messageTextsOf(body).flatMap(statementsIn);
}

/** The texts of a request's conversation: every message but the instructions and tool results. */
export function messageTextsOf(body: ChatCompletionRequest): string[] {
  return body.messages.filter((message) => message.role !== 'system' && message.role !== 'developer' && message.role !== 'tool').map(messageText);
}

/** The statements of one message's text (see statementsOf). */
function statementsIn(text: string): Statement[] {
  const statements: Statement[] = [];
  let current: Statement | null = null;
  for (const line of text.split('\n')) {
    const match = STATEMENT.exec(line);
    if (match?.[2] && match[4]) {
      current = { speaker: match[2].trim(), text: match[4].trim(), reference: match[1], ...(/person|human/i.test(match[3] ?? '') ? { person: true } : {}) };
      statements.push(current);
    } else if (SECTION_BREAK.test(line)) current = null;
    else if (current && line.trim() !== '') current.text = `${current.text}\n${line.trim()}`;
  }
  return statements;
}

/**
 * The speaker of the last message addressed to this agent (`[Name]: ...`), if any: the last statement of the last
 * user message that has one (a participant's input joins what others said since its last answer into one message).
 */
export function previousSpeaker(body: ChatCompletionRequest): { name: string; text: string } | undefined {
  const person = personAnswered(body);
  if (person) return person;
  for (let index = body.messages.length - 1; index >= 0; index -= 1) {
    const message = body.messages[index];
    if (message?.role !== 'user') continue;
    const text = messageText(message);
    // The Scribe record and the room's cue ("[Room]: Your turn...") are not speakers to answer.
    if (/^\s*\[Scribe record/.test(text)) continue;
    const statement = statementsIn(text)
      .filter((entry) => entry.speaker !== 'Room')
      .at(-1);
    if (statement) return { name: statement.speaker, text: statement.text };
    if (!/^\s*\[Room\]:/.test(text)) return { name: 'the group', text };
  }
  return undefined;
}

/**
 * The person a turn answers, as the room's cue names them ("Your turn, Grok. Reply to Bo (person), Claude."), with
 * their latest words: answers that landed after a person spoke come later in the input, yet the person is answered.
 */
function personAnswered(body: ChatCompletionRequest): { name: string; text: string } | undefined {
  const cue = messageTextsOf(body).findLast((text) => /^\s*\[Room\]:\s*Your turn\b/.test(text));
  const targets = /Reply to ([^\n]+?)\.?\s*$/.exec(cue ?? '')?.[1]?.split(/,\s*/) ?? [];
  const people = new Set(targets.filter((target) => target.endsWith(' (person)')).map((target) => target.slice(0, -' (person)'.length)));
  if (people.size === 0) return undefined;
  const said = statementsOf(body).findLast((statement) => statement.person && people.has(statement.speaker));
  return said ? { name: said.speaker, text: said.text } : undefined;
}

/** A small stable number from a text, for varied but deterministic choices. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  return hash;
}
