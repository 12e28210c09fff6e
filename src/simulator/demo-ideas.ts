/** The demo Idea Extractor: the ledger entries a careful reader would take from the simulated participants' answers. */
import type { IdeaExtraction } from '../agents/ideas/idea-extractor-agent.ts';
import type { ChatCompletionRequest } from './chat-types.ts';
import { keyPhrasesOf, keywordsOf, messageTextsOf, shortened, statementsOf, subjectOf, topicOf, type Statement } from './conversation-reading.ts';
import { ideaText, isParticipant, standaloneIdeaText } from './demo-writing.ts';

// The extractor's own output type (types only): the demo answers exactly the schema the agent asks for.
type DemoIdea = IdeaExtraction['ideas'][number];

// The demo personas' sceptical lines: their speaker objects to the idea they quote.
const OBJECTION = /devil's advocate|the skeptic|unpopular take|wrong frame|worries me/i;
const MAX_QUESTIONS = 3;

const messageId = (statement: Statement) => Number(statement.reference?.slice(1));
const speakersOf = (statements: Statement[]) => [...new Set(statements.map((statement) => statement.speaker))];

/** The idea a statement is about: the words it quotes, else its first telling word. */
function ideaKey(statement: Statement): string {
  return /"([^"\n]{1,40})"/.exec(statement.text)?.[1]?.toLowerCase() ?? keywordsOf(ideaText(statement), 1)[0] ?? 'the idea';
}

/** The ideas already in the ledger, as the extractor's input lists them (`I3: title (proposed by Claude)`). */
function knownIdeas(body: ChatCompletionRequest): Array<{ id: string; title: string }> {
  return messageTextsOf(body).flatMap((text) =>
    [...text.matchAll(/^(I\d+): (.+) \(proposed by [^)]+\)$/gm)].map((match) => ({ id: match[1] ?? '', title: (match[2] ?? '').toLowerCase() })),
  );
}

/** One idea's messages, and its title: the words a person said, or the words the participants quote. */
interface IdeaGroup {
  title: string;
  statements: Statement[];
}

const TITLE_WORDS = 12;
/** A question that proposes ("What about…", "Should we…") rather than asks. */
const SUGGESTION = /^(?:what about|how about|why not|should we|could we|shall we|can we|what if we)\b/i;
/** Words that lead into a person's point without being it. */
const LEAD_IN = /^(?:i think|i believe|i'd say|i suggest|i propose|let's(?: also)? consider|maybe|perhaps)\s+(?:that\s+|we\s+)?(?:just\s+)?/i;

/**
 * A person's idea as a title: the first sentence that proposes (a statement, or a question such as "What about…?"),
 * without a greeting by name or words that lead into it, at most `TITLE_WORDS` words; null when they only asked.
 */
function personTitle(statement: Statement): string | null {
  const sentences = statement.text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.replace(/^@?\p{Lu}[\p{L}\p{N}-]*,\s+/u, '').trim());
  const proposal = sentences.find((sentence) => sentence !== '' && (!sentence.endsWith('?') || SUGGESTION.test(sentence)));
  if (!proposal) return null;
  const words = proposal
    .replace(LEAD_IN, '')
    .replace(/[?.!]+$/, '')
    .split(/\s+/);
  const title = words.slice(0, TITLE_WORDS).join(' ') + (words.length > TITLE_WORDS ? '…' : '');
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/**
 * The numbered statements grouped by idea, in order of first mention: a person's message that proposes is an idea of
 * theirs, joined by the answers that quote its words (a question they only asked is none); any other quoted word is an idea of its own. (The app passes only the
 * discussion: the topic and the answers to the Planner never reach the extractor.)
 */
function groupedByIdea(body: ChatCompletionRequest, subject: string): IdeaGroup[] {
  const groups = new Map<string, IdeaGroup>();
  const wordsOfPeople = new Map<string, string>();
  for (const statement of statementsOf(body).filter((entry) => entry.reference)) {
    const title = statement.person ? personTitle(statement) : null;
    if (statement.person && title) {
      const key = `person ${statement.reference}`;
      groups.set(key, { title, statements: [statement] });
      for (const word of keywordsOf(statement.text, 20)) if (!wordsOfPeople.has(word)) wordsOfPeople.set(word, key);
    } else if (isParticipant(statement)) {
      const quoted = ideaKey(statement);
      const key = wordsOfPeople.get(quoted) ?? quoted;
      const group = groups.get(key) ?? { title: `"${quoted}" for ${subject}`, statements: [] };
      groups.set(key, { ...group, statements: [...group.statements, statement] });
    }
  }
  return [...groups.values()];
}

function ideaOf({ title, statements }: IdeaGroup, known: Array<{ id: string; title: string }>): DemoIdea {
  const [first] = statements as [Statement, ...Statement[]];
  const others = statements.slice(1);
  const objectors = speakersOf(statements.filter((entry) => OBJECTION.test(entry.text))).filter((name) => name !== first.speaker);
  return {
    existingIdea: known.find((idea) => idea.title === title.toLowerCase())?.id ?? '',
    title,
    summary: shortened(first.person ? first.text : standaloneIdeaText(first), 200),
    proposer: first.speaker,
    builders: speakersOf(others.filter((entry) => !OBJECTION.test(entry.text))).filter((name) => name !== first.speaker && !objectors.includes(name)),
    objectors,
    messageIds: statements.map(messageId),
  };
}

function disagreementOf(group: IdeaGroup, idea: DemoIdea): IdeaExtraction['disagreements'][number] {
  const objection = group.statements.find((entry) => OBJECTION.test(entry.text));
  return {
    topic: group.statements[0]?.person ? `${idea.proposer}'s proposal: ${idea.title}` : `Whether ${idea.title} is the right move`,
    sides: [
      { speakers: [idea.proposer, ...idea.builders], position: idea.summary },
      { speakers: idea.objectors, position: objection ? shortened(standaloneIdeaText(objection), 200) : 'Doubts it.' },
    ],
    messageIds: idea.messageIds,
  };
}

/** The questions the participants left in their answers, each with its message. */
function questionsIn(statements: Statement[]): IdeaExtraction['openQuestions'] {
  return statements
    .filter(isParticipant)
    .flatMap((statement) =>
      (standaloneIdeaText(statement).match(/[^.!?]*\?/g) ?? []).map((question) => ({ question: question.trim(), messageIds: [messageId(statement)] })),
    )
    .filter((entry) => entry.question.length > 12 && Number.isFinite(entry.messageIds[0]))
    .slice(0, MAX_QUESTIONS);
}

/** The ledger entries of one extraction pass over the new messages of the request. */
export function demoIdeaExtraction(body: ChatCompletionRequest): IdeaExtraction {
  const subject = subjectOf(keyPhrasesOf(topicOf(body), 1)[0], 'the topic');
  const known = knownIdeas(body);
  const entries = groupedByIdea(body, subject).map((group) => ({ group, idea: ideaOf(group, known) }));
  return {
    ideas: entries.map((entry) => entry.idea),
    disagreements: entries.filter((entry) => entry.idea.objectors.length > 0).map((entry) => disagreementOf(entry.group, entry.idea)),
    openQuestions: questionsIn(statementsOf(body)),
  };
}
