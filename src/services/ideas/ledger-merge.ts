/**
 * Turns one extraction into ledger changes (pure): untrusted model output is checked against the session's
 * speakers and messages, then candidates are deduplicated against known ideas by embedding similarity.
 */
import type { IdeaExtraction } from '../../agents/ideas/idea-extractor-agent.ts';
import { cosineSimilarity } from '../../repositories/embeddings-repository.ts';
import type { DisagreementSide, Idea, LedgerNote } from '../../core/idea-ledger.ts';

/** An idea candidate after checking. */
export interface IdeaCandidate {
  /** An idea number the extractor named as already known, if it exists. */
  ref: number | null;
  title: string;
  summary: string;
  proposer: string;
  builders: string[];
  objectors: string[];
  messageIds: number[];
}

/** A disagreement or open question after checking. */
export interface NoteCandidate {
  kind: LedgerNote['kind'];
  text: string;
  sides: DisagreementSide[];
  messageIds: number[];
}

/** A message the extractor may cite: its stored id and its speaker. */
export interface CitableMessage {
  id: number;
  speaker: string;
}

/**
 * What the extraction may refer to: the session's speakers, its messages by the number the extractor reads them
 * under (`#12`, the session's own numbering, not the stored id), and the ideas already in the ledger.
 */
export interface LedgerScope {
  speakers: readonly string[];
  messages: ReadonlyMap<number, CitableMessage>;
  knownIdeas: ReadonlySet<number>;
}

const words = (text: string, count: number): string => text.trim().split(/\s+/).slice(0, count).join(' ');
const unique = <T>(items: Iterable<T>): T[] => [...new Set(items)];

function canonicalNames(names: readonly string[], scope: LedgerScope): string[] {
  const byLower = new Map(scope.speakers.map((name) => [name.toLowerCase(), name]));
  return unique(names.map((name) => byLower.get(name.trim().replace(/^@/, '').toLowerCase())).filter((name): name is string => name !== undefined));
}

/** The cited messages that exist, oldest first, each once: the ledger keeps their stored ids. */
function citedMessages(numbers: readonly number[], scope: LedgerScope): CitableMessage[] {
  const cited = unique(numbers)
    .map((number) => scope.messages.get(number))
    .filter((message): message is CitableMessage => message !== undefined);
  return [...new Map(cited.map((message) => [message.id, message])).values()].sort((a, b) => a.id - b.id);
}

function validIds(numbers: readonly number[], scope: LedgerScope): number[] {
  return citedMessages(numbers, scope).map((message) => message.id);
}

/** Checks an extraction: unknown speakers and message numbers are dropped (the rest become stored ids); an idea with no message left is dropped. */
export function checkExtraction(extraction: IdeaExtraction, scope: LedgerScope): { ideas: IdeaCandidate[]; notes: NoteCandidate[] } {
  const ideas: IdeaCandidate[] = [];
  for (const raw of extraction.ideas) {
    const refMatch = /^\s*I?(\d+)\s*$/i.exec(raw.existingIdea);
    const ref = refMatch && scope.knownIdeas.has(Number(refMatch[1])) ? Number(refMatch[1]) : null;
    const cited = citedMessages(raw.messageIds, scope);
    const messageIds = cited.map((message) => message.id);
    const summary = raw.summary.trim();
    const title = raw.title.trim() || words(summary, 8);
    if ((messageIds.length === 0 && ref === null) || title === '') continue;
    const firstSpeaker = cited[0]?.speaker ?? '';
    const proposer = canonicalNames([raw.proposer], scope)[0] ?? firstSpeaker;
    const objectors = canonicalNames(raw.objectors, scope).filter((name) => name !== proposer);
    const builders = canonicalNames(raw.builders, scope).filter((name) => name !== proposer && !objectors.includes(name));
    ideas.push({ ref, title: title.slice(0, 200), summary: (summary || title).slice(0, 1000), proposer, builders, objectors, messageIds });
  }
  const notes: NoteCandidate[] = [];
  for (const raw of extraction.disagreements) {
    const sides = raw.sides
      .map((side) => ({ speakers: canonicalNames(side.speakers, scope), position: side.position.trim() }))
      .filter((side) => side.speakers.length > 0 && side.position !== '');
    const messageIds = validIds(raw.messageIds, scope);
    if (sides.length < 2 || messageIds.length === 0 || raw.topic.trim() === '') continue;
    notes.push({ kind: 'disagreement', text: raw.topic.trim().slice(0, 300), sides: sides.slice(0, 2), messageIds });
  }
  for (const raw of extraction.openQuestions) {
    const messageIds = validIds(raw.messageIds, scope);
    if (messageIds.length === 0 || raw.question.trim() === '') continue;
    notes.push({ kind: 'open_question', text: raw.question.trim().slice(0, 300), sides: [], messageIds });
  }
  return { ideas, notes };
}

/** The outcome of merging one pass into the ledger. */
export interface MergeResult {
  /** New ideas and known ideas that changed. */
  changed: Idea[];
  notes: LedgerNote[];
  candidates: number;
  newIdeas: number;
  duplicates: number;
  newObjections: number;
}

/** What a merge needs besides the candidates. */
export interface MergeInput {
  sessionId: string;
  pass: number;
  known: readonly Idea[];
  knownNotes: readonly LedgerNote[];
  ideas: readonly IdeaCandidate[];
  notes: readonly NoteCandidate[];
  /** Embeddings of `ideas` then `notes` (title + summary / text), or null without embeddings. */
  embeddings: (number[] | null)[] | null;
  similarity: number;
}

const normalise = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function closest<T extends { embedding: number[] | null }>(
  items: readonly T[],
  embedding: number[] | null,
  text: string,
  textOf: (item: T) => string,
  threshold: number,
): T | undefined {
  let best: { item: T; score: number } | undefined;
  for (const item of items) {
    const score = embedding && item.embedding ? cosineSimilarity(embedding, item.embedding) : normalise(textOf(item)) === normalise(text) ? 1 : 0;
    if (score >= threshold && (!best || score > best.score)) best = { item, score };
  }
  return best?.item;
}

function absorb(target: Idea, candidate: IdeaCandidate): number {
  const newObjectors = candidate.objectors.filter((name) => !target.objectors.includes(name));
  // Someone else restating an idea builds on it; an objector who restates it has come round.
  const supporters = [...candidate.builders, ...(candidate.proposer && candidate.proposer !== target.proposer ? [candidate.proposer] : [])];
  target.objectors = unique([...target.objectors, ...candidate.objectors]);
  target.builders = unique([...target.builders, ...supporters]).filter((name) => name !== target.proposer && !target.objectors.includes(name));
  target.messageIds = unique([...target.messageIds, ...candidate.messageIds]).sort((a, b) => a - b);
  target.mentions += 1;
  return newObjectors.length;
}

/** Merges checked candidates into the ledger: same idea (by reference or similarity) merges, else a new number. */
export function mergeIntoLedger(input: MergeInput): MergeResult {
  const ideas = input.known.map((idea) => ({ ...idea, builders: [...idea.builders], objectors: [...idea.objectors], messageIds: [...idea.messageIds] }));
  const changed = new Set<number>();
  const result: MergeResult = { changed: [], notes: [], candidates: input.ideas.length, newIdeas: 0, duplicates: 0, newObjections: 0 };
  let next = Math.max(0, ...ideas.map((idea) => idea.number)) + 1;
  input.ideas.forEach((candidate, index) => {
    const embedding = input.embeddings?.[index] ?? null;
    const target =
      candidate.ref !== null
        ? ideas.find((idea) => idea.number === candidate.ref)
        : closest(ideas, embedding, candidate.title, (idea) => idea.title, input.similarity);
    if (target) {
      result.duplicates += 1;
      result.newObjections += absorb(target, candidate);
      changed.add(target.number);
      return;
    }
    const idea: Idea = {
      sessionId: input.sessionId,
      number: next,
      title: candidate.title,
      summary: candidate.summary,
      proposer: candidate.proposer,
      builders: candidate.builders,
      objectors: candidate.objectors,
      messageIds: candidate.messageIds,
      mentions: 1,
      firstPass: input.pass,
      embedding,
    };
    next += 1;
    ideas.push(idea);
    changed.add(idea.number);
    result.newIdeas += 1;
    result.newObjections += idea.objectors.length;
  });
  const notes = [...input.knownNotes];
  input.notes.forEach((candidate, index) => {
    const embedding = input.embeddings?.[input.ideas.length + index] ?? null;
    const same = closest(
      notes.filter((note) => note.kind === candidate.kind),
      embedding,
      candidate.text,
      (note) => note.text,
      input.similarity,
    );
    if (same) return;
    const note: LedgerNote = {
      sessionId: input.sessionId,
      kind: candidate.kind,
      text: candidate.text,
      sides: candidate.sides,
      messageIds: candidate.messageIds,
      firstPass: input.pass,
      embedding,
    };
    notes.push(note);
    result.notes.push(note);
    if (note.kind === 'disagreement') result.newObjections += 1;
  });
  result.changed = ideas.filter((idea) => changed.has(idea.number));
  return result;
}

/** The text embedded for a candidate (ideas then notes, in merge order). */
export function embeddingTexts(ideas: readonly IdeaCandidate[], notes: readonly NoteCandidate[]): string[] {
  return [...ideas.map((idea) => `${idea.title}\n${idea.summary}`), ...notes.map((note) => note.text)];
}
