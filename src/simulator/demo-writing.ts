import type { ChatCompletionRequest } from './chat-types.ts';
import { keywordsOf, previousSpeaker, recordSections, stableHash, statementsOf, topicOf, type Statement } from './conversation-reading.ts';

const SIMULATED = '(simulated)';

/** Two clarifying questions about the topic. */
export function plannerQuestions(topic: string): string[] {
  const [first = 'the idea', second = 'the outcome'] = keywordsOf(topic, 2);
  return [
    `What outcome would make a discussion of "${topic}" a success for you — a decision, a shortlist of options, or open exploration? ${SIMULATED}`,
    `Which constraints matter most around ${first} and ${second} (budget, time, audience, technology)? ${SIMULATED}`,
  ];
}

/** A plan drawn from the topic and the answers given so far. */
export function plannerPlan(body: ChatCompletionRequest): Record<string, unknown> {
  const topic = topicOf(body);
  const answers = body.messages
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : ''))
    .filter((text) => /^(Answers from|Revision requested by)/i.test(text))
    .join(' ');
  const words = [...keywordsOf(topic, 4), ...keywordsOf(answers, 4)];
  const pick = (index: number, fallback: string) => words[index] ?? fallback;
  return {
    expandedTopic: `${topic} — explored from several angles, weighing options against the constraints the group named ${SIMULATED}`,
    objectives: [
      `Map the main options for ${pick(0, 'the topic')}`,
      `Weigh the trade-offs around ${pick(1, 'cost and effort')}`,
      `Agree on next steps for ${pick(2, 'the most promising option')}`,
    ],
    keyAreas: [`${pick(0, 'Goals')} and goals`, `${pick(3, 'Risks')} and risks`, `${pick(4, 'Resources')} and resources`],
    expectedFlow: ['Open: each participant proposes ideas', 'Debate: challenge and combine the strongest ideas', 'Converge: shortlist and next steps'],
    parameters: { maxMessages: 40, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 70 },
    estimate: { durationMinutes: 15, costUsd: 0.2, messages: 40 },
  };
}

const OPENINGS = [
  (name: string, previous: string, idea: string) => `Building on what ${previous} said, I'd put ${idea} first.`,
  (name: string, previous: string, idea: string) => `${previous} makes a fair point, but from where I sit as ${name}, ${idea} is the real question.`,
  (name: string, previous: string, idea: string) => `I'd push back a little on ${previous}: ${idea} deserves a closer look before we commit.`,
  (name: string, previous: string, idea: string) => `Adding to ${previous}'s thought — ${idea} could be the lever that makes this work.`,
];

const CLOSINGS = [
  (topic: string) => `A small experiment would tell us quickly whether it holds for ${topic}.`,
  (topic: string) => `What would we need to believe for that to be the best route on ${topic}?`,
  (topic: string) => `I'd sketch two options and compare cost, risk and time to value for ${topic}.`,
  (topic: string) => `Let's name the one assumption about ${topic} that would sink this if it were wrong.`,
];

/** A short, on-topic participant answer that names its own perspective and the previous speaker. */
export function participantAnswer(name: string, body: ChatCompletionRequest): string {
  const previous = previousSpeaker(body);
  const topic = topicOf(body);
  const ideas = keywordsOf(`${previous?.text ?? ''} ${topic}`, 6);
  const seed = stableHash(`${name}|${body.messages.length}|${previous?.text ?? ''}`);
  const idea = ideas[seed % Math.max(1, ideas.length)] ?? 'the core idea';
  const opening = OPENINGS[seed % OPENINGS.length] ?? OPENINGS[0];
  const closing = CLOSINGS[(seed >>> 3) % CLOSINGS.length] ?? CLOSINGS[0];
  const speaker = previous && previous.name !== name ? previous.name : 'the group';
  return `${opening?.(name, speaker, idea) ?? ''} As ${name}, ${closing?.(topic) ?? ''} ${SIMULATED}`;
}

function groupBySpeaker(statements: Statement[]): Map<string, Statement[]> {
  const groups = new Map<string, Statement[]>();
  for (const statement of statements) groups.set(statement.speaker, [...(groups.get(statement.speaker) ?? []), statement]);
  return groups;
}

/** A markdown record of the conversation: a section per speaker with their points, then a timeline; keeps a previous record's points. */
export function scribeRecord(body: ChatCompletionRequest): string {
  const topic = topicOf(body);
  const previous = recordSections(body);
  const fresh = statementsOf(body).filter((statement) => !previous.some((old) => old.text === statement.text));
  const statements = [...previous, ...fresh];
  const lines = [`# Detailed record: ${topic}`, '', `_Simulated record written by the demo Scribe ${SIMULATED}._`, ''];
  if (statements.length === 0) return [...lines, 'No discussion has been recorded yet.'].join('\n');
  lines.push('## Participants and their points', '');
  for (const [speaker, said] of groupBySpeaker(statements)) {
    lines.push(`### ${speaker}`, ...said.map((statement) => `- ${statement.reference ? `${statement.reference} ` : ''}${statement.text}`), '');
  }
  const timeline = statements.map((statement, index) => `${index + 1}. ${statement.reference ? `${statement.reference} ` : ''}${statement.speaker}: ${statement.text.slice(0, 160)}`);
  lines.push('## Timeline', '', ...timeline);
  return lines.join('\n');
}

/** A summary and three findings drawn from a record, each with its sources. */
export function tldrSummary(body: ChatCompletionRequest): { summary: string; keyFindings: Array<{ finding: string; sources: string[] }> } {
  const topic = topicOf(body);
  const fromRecord = recordSections(body);
  const statements = fromRecord.length > 0 ? fromRecord : statementsOf(body);
  const speakers = [...groupBySpeaker(statements)].map(([speaker, said]) => ({ speaker, first: said[0] }));
  const findings = speakers.slice(0, 3).map(({ speaker, first }) => ({
    finding: `${speaker}: ${first?.text.slice(0, 200) ?? ''}`,
    sources: first?.reference ? [speaker, first.reference] : [speaker],
  }));
  const everyone = speakers.map((entry) => entry.speaker);
  while (findings.length < 3) {
    findings.push({ finding: `The discussion of ${topic} needs more input before a firm conclusion ${SIMULATED}`, sources: everyone.length > 0 ? everyone : ['record'] });
  }
  const who = everyone.length > 0 ? everyone.join(', ') : 'the participants';
  return {
    summary: `${who} discussed ${topic}. The record shows the main options, the trade-offs raised and the open questions. This summary was produced by the demo TLDR ${SIMULATED}.`,
    keyFindings: findings,
  };
}
