import { isCritiqueBallot } from '../core/critique.ts';
import type { ChatCompletionRequest } from './chat-types.ts';
import { ideaNamedIn } from './idea-choice.ts';
import { statementsOf, topicOf, wasCutShort, type Statement } from './conversation-reading.ts';
import { chronological, isParticipant, plainTopic, SIMULATED, standaloneIdeaText } from './demo-writing.ts';

/** A statement's persona line, without the idea it names: two findings of one line read as a copy of each other. */
function lineOf(statement: Statement): string {
  return standaloneIdeaText(statement).replace(/"[^"]*"/g, '""');
}

/**
 * The latest statement naming each of the three ideas the room named most (in quotes, as the simulated lines name
 * them), each in a line none of the others uses: a discussion's findings are what it kept coming back to, not
 * whatever was said last.
 */
function mostDiscussed(ideas: Statement[]): Statement[] {
  const naming = new Map<string, Statement[]>();
  for (const statement of ideas) {
    const idea = ideaNamedIn(statement.text)?.toLowerCase();
    if (idea) naming.set(idea, [statement, ...(naming.get(idea) ?? [])]);
  }
  const picked: Statement[] = [];
  for (const latestFirst of [...naming.values()].sort((left, right) => right.length - left.length)) {
    const fresh = latestFirst.find((statement) => !picked.some((chosen) => lineOf(chosen) === lineOf(statement)));
    if (fresh && picked.length < 3) picked.push(fresh);
  }
  return picked;
}

/** A summary and three findings drawn from the participants' ideas in the record, each with its speaker and message. */
export function tldrSummary(body: ChatCompletionRequest): { summary: string; keyFindings: Array<{ finding: string; sources: string[] }> } {
  const topic = plainTopic(topicOf(body, 1_000));
  const statements = chronological(statementsOf(body));
  // A critique ballot ("My ranking: Proposal B > …", posted under a participant's name) ranks ideas; it is none.
  const ideas = statements.filter((statement) => isParticipant(statement) && !isCritiqueBallot(statement.text.trim()) && !wasCutShort(statement));
  // The ideas named most; else the latest of each participant (the most developed), then earlier ones, up to three.
  const picked = mostDiscussed(ideas);
  const freshLine = (statement: Statement) => !picked.some((chosen) => lineOf(chosen) === lineOf(statement));
  const speakerNew = (statement: Statement) => !picked.some((chosen) => chosen.speaker === statement.speaker);
  for (const wanted of [
    (statement: Statement) => speakerNew(statement) && freshLine(statement),
    freshLine,
    (statement: Statement) => !picked.includes(statement),
  ])
    for (const statement of [...ideas].reverse()) if (picked.length < 3 && wanted(statement)) picked.push(statement);
  const findings = ideas
    .filter((statement) => picked.includes(statement))
    .map((statement) => ({
      // The speaker is cited with the message: "Claude: … (Claude, #37)" would name them twice.
      finding: standaloneIdeaText(statement),
      sources: statement.reference ? [statement.speaker, statement.reference] : [statement.speaker],
    }));
  const speakers = [...new Set(ideas.map((statement) => statement.speaker))];
  // Every finding cites messages, as the TLDR's guardrail demands: the padding ones cite the whole discussion.
  const references = statements.flatMap((statement) => (statement.reference ? [statement.reference] : []));
  while (findings.length < 3) {
    findings.push({
      finding: `The discussion of ${topic} needs more input before a firm conclusion ${SIMULATED}`,
      sources: references.length > 0 ? references.slice(-3) : speakers.length > 0 ? speakers : ['record'],
    });
  }
  const people = [...new Set(statements.filter((statement) => statement.person).map((statement) => statement.speaker))];
  const who = speakers.length > 0 ? speakers.join(', ') : 'the participants';
  return {
    summary: `${who} discussed “${topic}”${people.length > 0 ? ` with ${people.join(', ')}` : ''} over ${statements.length} recorded message${statements.length === 1 ? '' : 's'}. The findings below are their strongest ideas, each traced to its message. This summary was produced by the demo TLDR ${SIMULATED}.`,
    keyFindings: findings,
  };
}
