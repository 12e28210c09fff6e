import { LATEST_ANSWERS_COMPARED, repetitionCheck } from '../core/repetition.ts';
import { spokenList } from '../core/spoken-list.ts';
import { escapeForPattern } from '../core/speaker-label.ts';
import { messageText, type ChatCompletionRequest } from './chat-types.ts';
import { chooseIdea } from './idea-choice.ts';
import { comparisonOf } from './demo-comparison.ts';
import { presetOf } from './demo-presets.ts';
import {
  keyPhrasesOf,
  keywordsOf,
  messageTextsOf,
  previousSpeaker,
  shortened,
  stableHash,
  statementsOf,
  subjectOf,
  topicOf,
  type Statement,
} from './conversation-reading.ts';

/** The mark every simulated text carries. */
export const SIMULATED = '(simulated)';

/** Two clarifying questions about the topic. */
export function plannerQuestions(topic: string): string[] {
  const around = keyPhrasesOf(topic, 2).map((phrase) => `“${phrase}”`);
  const focus = around.length > 0 ? ` for ${around.join(' and ')}` : '';
  return [
    `What outcome would make a discussion of "${topic}" a success for you — a decision, a shortlist of options, or open exploration? ${SIMULATED}`,
    `Which constraints matter most${focus} (budget, time, audience, technology)? ${SIMULATED}`,
  ];
}

/** The people's answers to the Planner (`Answers from Ana: ...`), with who gave them. */
function answersOf(body: ChatCompletionRequest): { authors: string[]; text: string } {
  const found = body.messages
    .filter((message) => message.role === 'user')
    .map(messageText)
    .map((text) => /^(?:Answers from|Revision requested by)\s+([^:]{1,60}):\s*([\s\S]+)$/i.exec(text.trim()))
    .filter((match): match is RegExpExecArray => match !== null);
  return { authors: [...new Set(found.map((match) => match[1]?.trim() ?? ''))].filter(Boolean), text: found.map((match) => match[2]?.trim() ?? '').join(' ') };
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

// The demo plan's own words around the topic (which participants read back as the topic): never ideas to pick up.
const PLANNED_AROUND = 'planned around what';
const TOLD_THE_PLANNER = 'told the Planner';
const EXPLORED = 'explored from several angles before the group converges';

/** The topic as people put it, without the demo plan's own words around it (which read oddly in a summary). */
export function plainTopic(topic: string): string {
  const around = [PLANNED_AROUND, EXPLORED].map((words) => topic.indexOf(` — ${words}`)).filter((index) => index > 0);
  return around.length > 0 ? topic.slice(0, Math.min(...around)) : topic;
}

/** A plan drawn from the topic and, first of all, from what people answered the Planner. */
export function plannerPlan(body: ChatCompletionRequest): Record<string, unknown> {
  const topic = topicOf(body);
  const answers = answersOf(body);
  const heard = keyPhrasesOf(answers.text, 4);
  const who = answers.authors.length > 0 ? answers.authors.join(' and ') : 'the group';
  const comparison = comparisonOf(topic);
  // A topic that weighs options is about those options first ("Postgres", "DynamoDB"), whatever its wording puts first.
  const topicPhrases = comparison ? [...comparison.options, ...keyPhrasesOf(topic, 4)] : keyPhrasesOf(topic, 4);
  const areas = [...new Set([...(comparison?.options ?? []), ...heard, ...topicPhrases].map(capitalised)), 'Risks', 'Next steps'].filter(
    (word, index, all) => all.findIndex((other) => other.toLowerCase() === word.toLowerCase()) === index,
  );
  return {
    expandedTopic: answers.text
      ? `${topic} — ${PLANNED_AROUND} ${who} ${TOLD_THE_PLANNER}: “${shortened(answers.text, 180)}” ${SIMULATED}`
      : `${topic} — ${EXPLORED} ${SIMULATED}`,
    objectives: [
      comparison
        ? `Weigh ${spokenList(comparison.options, 'and')} against each other${comparison.purpose ? ` for ${comparison.purpose}` : ''}`
        : `Map the options for ${subjectOf(topicPhrases[0], 'the topic')}`,
      heard.length > 0 ? `Answer what ${who} raised: ${heard.slice(0, 2).join(' and ')}` : 'Weigh the trade-offs of the strongest options',
      `Agree on one next step ${who === 'the group' ? 'the group' : who} can try`,
    ],
    keyAreas: areas.slice(0, 3),
    expectedFlow: ['Open: each participant proposes ideas', 'Debate: challenge and combine the strongest ideas', 'Converge: shortlist and next steps'],
    preset: presetOf(body, topic),
    parameters: shownLimits(body) ?? { maxMessages: 40, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 70 },
    estimate: { durationMinutes: 15, costUsd: 0.2, messages: 40 },
    // A topic that asks for a decision gets a critique round, as the Planner's prompt says.
    critiqueRound: /\b(?:should|which|choose|decide|pick|versus|vs)\b/i.test(topic),
  };
}

/** The limits of the plan people were shown, which a revision keeps: the demo changes none of them itself. */
function shownLimits(body: ChatCompletionRequest): Record<string, unknown> | null {
  for (const text of body.messages.map(messageText).reverse()) {
    const shown = /The plan as shown had these limits: (\{[^}]*\})/.exec(text)?.[1];
    const before = /^The plan proposed before:\n(\{[\s\S]*\})\s*$/.exec(text)?.[1];
    try {
      if (shown) return JSON.parse(shown) as Record<string, unknown>;
      if (before) return (JSON.parse(before) as { parameters?: Record<string, unknown> }).parameters ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

/** What a canned answer is built from: who it answers, the idea it picks up, and the subject. */
interface AnswerParts {
  to: string;
  idea: string;
  subject: string;
}

type AnswerLine = (parts: AnswerParts) => string;

/** Lines in the spirit of each default persona, so the demo reads like the product it stands in for. */
const STYLES: Record<string, AnswerLine[]> = {
  claude: [
    (p) =>
      `${p.to}, before we go further on "${p.idea}", let's name the assumption underneath it: that it is what actually limits ${p.subject}. If that is wrong, the plan changes.`,
    (p) =>
      `I see a trade-off in "${p.idea}", ${p.to}: it buys speed on ${p.subject} at the cost of more moving parts. I'd accept that only with a clear way to roll back.`,
    (p) => `Agreeing with ${p.to} on the direction, with one caveat: "${p.idea}" needs an owner and a review date, or it quietly becomes permanent.`,
  ],
  chatgpt: [
    (p) =>
      `Concretely, ${p.to}: (1) try "${p.idea}" with one small team, (2) measure it for two weeks, (3) decide. I'm happy to be challenged on the measurement.`,
    (p) =>
      `Building on ${p.to}: two options for ${p.subject} — a lightweight version of "${p.idea}" now, or a fuller one next quarter. I lean towards the first.`,
    (p) => `A quick example of "${p.idea}" working for ${p.subject}: start with the riskiest path only, and widen it once nothing breaks for a week.`,
  ],
  grok: [
    (p) =>
      `Devil's advocate, ${p.to}: what if "${p.idea}" is the wrong frame for ${p.subject} entirely? Cheapest test: skip it for a month and see who notices.`,
    (p) => `I'll be the skeptic, ${p.to}: everyone likes "${p.idea}", which worries me. What is the failure mode nobody wants to say out loud?`,
    (p) => `Unpopular take on what ${p.to} said: "${p.idea}" sounds safe, but for ${p.subject} the bold option may be cheaper than the careful one.`,
  ],
  default: [
    (p) => `Picking up ${p.to}'s point on "${p.idea}": for ${p.subject}, I'd start small and measure before committing.`,
    (p) => `${p.to}, I'd add one thing about "${p.idea}": write down what would make us drop it, before we start.`,
  ],
};

/** Lines any persona takes once its own were all said with the idea at hand, before it would repeat itself. */
const FRESH_ANGLES: AnswerLine[] = [
  (p) => `One more angle on "${p.idea}", ${p.to}: who would own it day to day, and what would tell us in a month that it worked for ${p.subject}?`,
  (p) => `${p.to}, to make "${p.idea}" concrete for ${p.subject}: name the first change, the person who makes it, and the date we look at the result.`,
  (p) => `On "${p.idea}", ${p.to}: the cost nobody has priced yet for ${p.subject} is the time it takes from the work we already do.`,
  (p) => `A smaller step for ${p.subject}, ${p.to}: try "${p.idea}" on one case this week, and bring back what surprised us.`,
];

/** Speakers that run the session rather than brainstorm in it. */
const ROLES = new Set(['planner', 'moderator', 'scribe', 'tldr', 'room', 'brainstorm', 'idea extractor']);

/**
 * The words of the persona lines themselves and the personas' names: an idea picked up from another simulated answer
 * is then one that came from the topic or a person ("offline mode"), never the line's own wording ("concretely").
 */
const LINE_WORDS = new Set([
  ...[...Object.values(STYLES), FRESH_ANGLES].flatMap((lines) => lines.flatMap((line) => keywordsOf(line({ to: '', idea: '', subject: '' }), 100))),
  ...Object.keys(STYLES),
  ...keywordsOf(`${PLANNED_AROUND} ${TOLD_THE_PLANNER} ${EXPLORED}`, 20),
  'everyone',
]);

/** Italic notes in parentheses that the room adds to a message (an answer cut short ends `— *(interrupted)*`). */
const ROOM_MARKS = /—?\s*\*\([^)\n]{1,60}\)\*/g;

/** A word of an idea's own, not of the persona lines ("devil's" is the line's "devil"; "let's" says nothing). */
function tellingWord(word: string): boolean {
  const stem = word.toLowerCase().replace(/['’].*$/, '');
  return stem.length > 3 && !LINE_WORDS.has(stem);
}

/**
 * Up to six phrases of `text` worth picking up as an idea ("weekly planning", not "weekly"): none made of the persona
 * lines' own words only, nor a speaker's name, nor a role's ("Agreeing with Moderator" offers no idea called "moderator").
 */
function ideasIn(text: string, speakers: string[]): string[] {
  const names = new Set([...speakers.map((speaker) => speaker.toLowerCase()), ...ROLES]);
  // The room's own marks on a message ("— *(interrupted)*") are no idea of the speaker's.
  return keyPhrasesOf(text.replace(ROOM_MARKS, ' '), 40)
    .map((phrase) =>
      phrase
        .split(' ')
        .filter((word) => !names.has(word.toLowerCase()))
        .join(' '),
    )
    .filter((phrase) => phrase.split(' ').some(tellingWord))
    .slice(0, 6);
}

/** The demo plan's topic without the names of those the Planner heard from ("what Dana told"), which are no idea. */
function withoutWhoToldThePlanner(topic: string): string {
  const start = topic.indexOf(PLANNED_AROUND);
  const end = topic.indexOf(TOLD_THE_PLANNER, start);
  return start >= 0 && end > start ? `${topic.slice(0, start + PLANNED_AROUND.length)} ${topic.slice(end)}` : topic;
}

/** `text` with every mention of `phrase` ("the onboarding emails", or "onboarding emails") replaced by a comma. */
function withoutPhrase(text: string, phrase: string): string {
  const words = phrase.replace(/^the /, '').trim();
  if (words === '') return text;
  return text.replace(new RegExp(`(?:\\bthe )?${escapeForPattern(words)}`, 'gi'), ',');
}

/** Whether `line` was said in `conversation` already with this idea and subject, whoever it was addressed to. */
function saidBefore(line: AnswerLine, parts: Omit<AnswerParts, 'to'>, conversation: string): boolean {
  const ADDRESSEE = '\u0000';
  const pieces = line({ ...parts, to: ADDRESSEE })
    .split(ADDRESSEE)
    .filter((piece) => piece.length > 20);
  return pieces.length > 0 && pieces.every((piece) => conversation.includes(piece));
}

/** A short, on-topic participant answer in the participant's style, answering the previous speaker. */
export function participantAnswer(name: string, body: ChatCompletionRequest): string {
  const previous = previousSpeaker(body);
  // The topic as people put it: the demo plan's words around it ("what Dana told the Planner") are no subject.
  const topic = plainTopic(topicOf(body));
  const comparison = comparisonOf(topic);
  const subject = comparison?.purpose ? subjectOf(comparison.purpose, 'this') : subjectOf(keyPhrasesOf(topic, 1)[0], 'this');
  // Anyone who spoke is no idea ("what Maya said" offers no "Maya said"), whoever is answered.
  const statements = statementsOf(body);
  const speakers = [name, ...new Set(statements.map((statement) => statement.speaker))];
  // The Moderator's welcome and notices carry no idea to pick up: then the topic does, as when an answer offers none.
  // The subject is named in every line, so a phrase running on from it ("the onboarding emails entirely" gives
  // "emails entirely") is the line's wording, not an idea: it is taken out before the phrases are read.
  const heard = previous && previous.name !== 'Moderator' ? ideasIn(withoutPhrase(previous.text, subject), [...speakers, previous.name]) : [];
  // The subject is named in every line already: another phrase makes the idea, when there is one.
  const fresh = (phrases: string[]) => (phrases.length > 1 ? phrases.filter((phrase) => subject !== `the ${phrase}` && subject !== phrase) : phrases);
  const seed = stableHash(`${name}|${body.messages.length}|${previous?.text ?? ''}`);
  const conversation = messageTextsOf(body).join('\n');
  // The whole topic: what a person told the Planner can run past the 200 characters a line quotes.
  // A topic that weighs options is discussed through them.
  const fromTopic = comparison ? comparison.options : fresh(ideasIn(withoutWhoToldThePlanner(topicOf(body, 1_000)), speakers));
  const idea = chooseIdea({ heard: fresh(heard), fromTopic, conversation, seed }) ?? 'the core idea';
  const lines = STYLES[name.toLowerCase()] ?? STYLES.default ?? [];
  const to = previous && previous.name !== name && previous.name !== 'the group' ? previous.name : 'everyone';
  // The seed picks the style's line; one this participant already said, to whomever, gives way to the next.
  const first = (seed >>> 3) % Math.max(1, lines.length);
  const ordered = lines.map((_, index) => lines[(first + index) % lines.length]!);
  const unsaid = ordered.find((line) => !saidBefore(line, { idea, subject }, conversation)) ?? ordered[0];
  const written = (line: AnswerLine | undefined, about: string) => `${line?.({ to, idea: about, subject }) ?? ''} — ${name} ${SIMULATED}`;
  // A model that says its own answer again is asked for something new (services/coordinator/turn-repeats.ts): the
  // demo takes another line, or another idea, before it repeats itself.
  // Its latest answers, what the check compares: its lines in the transcript of older messages, then its turns.
  const repeats = repetitionCheck(
    [
      ...statements.filter((statement) => statement.speaker === name),
      ...body.messages.filter((message) => message.role === 'assistant').map((message) => ({ text: messageText(message) })),
    ].slice(-LATEST_ANSWERS_COMPARED),
  );
  const answer = written(unsaid, idea);
  if (!repeats(answer)) return answer;
  for (const about of [idea, ...fromTopic, ...heard]) {
    for (const line of [...ordered, ...FRESH_ANGLES]) if (!repeats(written(line, about))) return written(line, about);
  }
  return answer;
}

/** Said by a participant: not a person, not one of the roles. */
export function isParticipant(statement: Statement): boolean {
  return !statement.person && !ROLES.has(statement.speaker.toLowerCase());
}

function numberOf(statement: Statement): number {
  return statement.reference ? Number(statement.reference.slice(1)) : Number.POSITIVE_INFINITY;
}

/** Every statement once, oldest first: by message number where there is one, else in the order read. */
export function chronological(statements: Statement[]): Statement[] {
  const seen = new Set<string>();
  const unique = statements.filter((statement) => {
    const key = statement.reference ?? `${statement.speaker}|${statement.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .map((statement, index) => ({ statement, index }))
    .sort((a, b) => numberOf(a.statement) - numberOf(b.statement) || a.index - b.index)
    .map((entry) => entry.statement);
}

/** A participant's idea without its persona's signature (" — Claude (simulated)"). */
export function ideaText(statement: Statement): string {
  return shortened(statement.text.replace(new RegExp(`\\s*—\\s*${escapeForPattern(statement.speaker)}\\s*\\(simulated\\)\\s*$`), ''), 220);
}

/**
 * A participant's idea as it reads on its own (a finding, an idea's summary, a side of a disagreement): without the
 * words that turn to whom it answered ("Building on Claude: …", "ChatGPT, before we go further…").
 */
export function standaloneIdeaText(statement: Statement): string {
  return ideaText(statement)
    .replace(/^[^:"]{0,40}:\s+/, '')
    .replace(/^\p{Lu}[\p{L}\p{N}-]{1,30},\s+(?=\p{Ll})/u, '')
    .replace(/^./, (first) => first.toUpperCase());
}
