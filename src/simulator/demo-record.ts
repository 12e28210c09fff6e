/** The demo Scribe's record: the whole conversation in order, who said what, and the next steps proposed. */
import type { ChatCompletionRequest } from './chat-types.ts';
import { messageTextsOf, statementsOf, topicOf, wasCutShort, type Statement } from './conversation-reading.ts';
import { chronological, ideaText, isParticipant, SIMULATED } from './demo-writing.ts';

function timelineLine(statement: Statement): string {
  const [first = '', ...rest] = statement.text.split('\n');
  const who = `[${statement.speaker}${statement.person ? ' (person)' : ''}]`;
  return [`- ${statement.reference ? `${statement.reference} ` : ''}${who}: ${first}`, ...rest.map((line) => `  ${line}`)].join('\n');
}

/** A markdown record of the whole conversation in order (nothing cut), then who contributed what; keeps a previous record. */
export function scribeRecord(body: ChatCompletionRequest): string {
  const topic = topicOf(body);
  const statements = chronological(statementsOf(body));
  const lines = [`# Detailed record: ${topic}`, '', `_Simulated record written by the demo Scribe ${SIMULATED}._`, ''];
  if (statements.length === 0) return [...lines, 'No discussion has been recorded yet.'].join('\n');
  lines.push('## Timeline', '', ...statements.map(timelineLine), '', '## Ideas by participant', '');
  const byParticipant = new Map<string, string[]>();
  for (const statement of statements.filter(isParticipant))
    byParticipant.set(statement.speaker, [...(byParticipant.get(statement.speaker) ?? []), statement.reference ?? '(unnumbered)']);
  for (const [speaker, references] of byParticipant) lines.push(`- ${speaker}: ${references.join(', ')}`);
  if (byParticipant.size === 0) lines.push('- No participant has spoken yet.');
  const steps = nextSteps(statements, messageTextsOf(body).join('\n'));
  lines.push('', '## Next steps', '', ...(steps.length > 0 ? steps : ['- None proposed yet.']));
  return lines.join('\n');
}

/** What marks a sentence as a proposed action, for the demo's next steps. */
const ACTION_CUE = /\b(?:try|test|pilot|start with|next step)\b/i;

/** The sentence of a statement that proposes an action, without a leading "Concretely, Claude:"; null when none does. */
function actionSentence(statement: Statement): string | null {
  const sentences = ideaText(statement)
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/);
  const sentence = sentences.find((candidate) => ACTION_CUE.test(candidate));
  return sentence ? sentence.replace(/^[^:]{0,40}:\s+/, '').replace(/^./, (first) => first.toUpperCase()) : null;
}

/** Capitalised words that open such a clause without naming anyone ("It takes that…"). */
const NOT_NAMES = new Set(['It', 'This', 'That', 'Who', 'Nobody', 'Everyone', 'Someone', 'Somebody', 'Anyone', 'One']);

/** Who a statement names as taking the action on ("Bo owns it", "Bo will take it"), else a person's own name. */
function ownerOf(statement: Statement): string | null {
  const named = /\b(\p{Lu}[\p{L}'-]{1,30})\s+(?:owns|will own|takes|will take|is on|will do|will drive|drives)\s+(?:it|this|that)\b/u.exec(statement.text)?.[1];
  return named && !NOT_NAMES.has(named) ? named : statement.person ? statement.speaker : null;
}

/**
 * What the discussion said: from the Moderator's welcome, once the plan is approved (the answers to the Planner's
 * questions, "a decision we can try next week", are no proposals); everything when there is no welcome.
 */
function discussion(statements: Statement[]): Statement[] {
  const welcome = statements.findIndex((statement) => statement.speaker === 'Moderator' && /plan is approved/i.test(statement.text));
  return welcome < 0 ? statements : statements.slice(welcome + 1);
}

/**
 * The record's task list: the actions people proposed (theirs first), then participants', three at most, each with its
 * owner when one was named; a box people ticked (in the previous record) stays ticked.
 */
function nextSteps(statements: Statement[], requestText: string): string[] {
  const proposed = discussion(statements).flatMap((statement) => {
    // An answer cut off mid-sentence proposes nothing finished.
    const action = (isParticipant(statement) || statement.person) && !wasCutShort(statement) ? actionSentence(statement) : null;
    return action ? [{ statement, action }] : [];
  });
  const people = proposed.filter((entry) => entry.statement.person).slice(-3);
  // The demo personas repeat their lines: an action already listed is not listed again.
  const actions = new Set<string>();
  const chosen = [...people, ...proposed.filter((entry) => !entry.statement.person).reverse()]
    .filter((entry) => !actions.has(entry.action) && actions.add(entry.action))
    .slice(0, 3);
  return chosen.map(({ statement, action }) => {
    const owner = ownerOf(statement);
    const step = `${action}${owner ? ` — ${owner}` : ''}${statement.reference ? ` (${statement.reference})` : ''}`;
    return `- [${requestText.includes(`- [x] ${step}`) ? 'x' : ' '}] ${step}`;
  });
}
