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
    (p) => `${p.to}, before we go further on "${p.idea}", let's name the assumption underneath it: that it is what actually limits ${p.subject}. If that is wrong, the plan changes.`,
    (p) => `I see a trade-off in "${p.idea}", ${p.to}: it buys speed on ${p.subject} at the cost of more moving parts. I'd accept that only with a clear way to roll back.`,
    (p) => `Agreeing with ${p.to} on the direction, with one caveat: "${p.idea}" needs an owner and a review date, or it quietly becomes permanent.`,
  ],
  chatgpt: [
    (p) => `Concretely, ${p.to}: (1) try "${p.idea}" with one small team, (2) measure it for two weeks, (3) decide. I'm happy to be challenged on the measurement.`,
    (p) => `Building on ${p.to}: two options for ${p.subject} — a lightweight version of "${p.idea}" now, or a fuller one next quarter. I lean towards the first.`,
    (p) => `A quick example of "${p.idea}" working for ${p.subject}: start with the riskiest path only, and widen it once nothing breaks for a week.`,
  ],
  grok: [
    (p) => `Devil's advocate, ${p.to}: what if "${p.idea}" is the wrong frame for ${p.subject} entirely? Cheapest test: skip it for a month and see who notices.`,
    (p) => `I'll be the skeptic, ${p.to}: everyone likes "${p.idea}", which worries me. What is the failure mode nobody wants to say out loud?`,
    (p) => `Unpopular take on what ${p.to} said: "${p.idea}" sounds safe, but for ${p.subject} the bold option may be cheaper than the careful one.`,
  ],
  default: [
    (p) => `Picking up ${p.to}'s point on "${p.idea}": for ${p.subject}, I'd start small and measure before committing.`,
    (p) => `${p.to}, I'd add one thing about "${p.idea}": write down what would make us drop it, before we start.`,
  ],
};

/** A short, on-topic participant answer in the participant's style, answering the previous speaker. */
export function participantAnswer(name: string, body: ChatCompletionRequest): string {
  const previous = previousSpeaker(body);
  const subjectWords = keywordsOf(topicOf(body), 2);
  const subject = subjectWords.length > 0 ? subjectWords.join(' ') : 'this';
  // The Moderator's welcome and notices carry no idea to pick up: then the topic does.
  const source = previous && previous.name !== 'Moderator' ? previous.text : topicOf(body);
  const ideas = keywordsOf(source, 6);
  const seed = stableHash(`${name}|${body.messages.length}|${previous?.text ?? ''}`);
  const idea = ideas[seed % Math.max(1, ideas.length)] ?? 'the core idea';
  const lines = STYLES[name.toLowerCase()] ?? STYLES.default ?? [];
  const line = lines[(seed >>> 3) % Math.max(1, lines.length)];
  const to = previous && previous.name !== name && previous.name !== 'the group' ? previous.name : 'everyone';
  return `${line?.({ to, idea, subject }) ?? ''} — ${name} ${SIMULATED}`;
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
