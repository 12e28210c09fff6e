import { Runner, withTrace, type AgentInputItem, type RunItem } from '@openai/agents';
import type { Logger } from 'pino';
import { AGENT_NAMES, documentFacts, type AgentContext } from '../../core/agent-context.ts';
import type { WrapUpChain } from '../../agents/moderator/wrap-up-chain.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import { moderationVerdictSchema, tldrSchema, type TldrOutput } from '../../core/schemas.ts';
import { describeLimits } from '../../tools/check-limits.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { ModerationHost, ModeratorSettings } from './moderation-host.ts';
import type { ModeratorVoice } from './moderator-voice.ts';
import { runForcedAct } from '../../agents/forced-act.ts';
import { createScribeRecordTool } from '../../agents/scribe/scribe-agent.ts';
import { fallbackRecord, recordable, recordSubject } from '../../agents/scribe/scribe-input.ts';
import { closingFacts, closingGreeting, composeClosingMessage, formatMessages, formatObjectives, parseQuality } from './moderation-messages.ts';
import { doneButtons, nextStepsIn } from '../../core/next-steps.ts';

/** The prompt of the wrap-up run's input (`prompts/moderator-wrap-up.txt`). */
export const WRAP_UP_PROMPT = 'moderator-wrap-up';
const WRAP_UP_MESSAGES = 60;
const WRAP_UP_MAX_TURNS = 16;
const WRAP_UP_FACTS_MESSAGES = 2000;

/** What a wrap-up produced. */
export interface WrapUpResult {
  closingMessage: string;
  quality: number | null;
  tldr: TldrOutput | null;
  failedSteps: string[];
  /** The agents the chain went through, in order (Moderator, Scribe, TLDR when complete). */
  agentsReached: string[];
}

/** Dependencies of the wrap-up. */
export interface WrapUpDependencies {
  host: ModerationHost;
  chain: WrapUpChain;
  prompts: PromptLibrary;
  settings: () => ModeratorSettings;
  logger: Logger;
  /** Posts the closing through the Moderator's post_to_discord (the service posts it when the model fails). */
  voice: ModeratorVoice;
  /** More for every step to read, after the prompt (the critique round's ranking), or null. */
  note?: (session: Session) => Promise<string | null>;
}

/** The parts of a run result the wrap-up reads. */
interface WrapUpRunResult {
  lastAgent?: { name: string } | undefined;
  newItems: RunItem[];
  finalOutput?: unknown;
  history: AgentInputItem[];
}

interface Collected {
  assessment: string | null;
  quality: number | null;
  objectivesMet: boolean | null;
  record: string | null;
  recordStored: boolean;
  tldr: TldrOutput | null;
  tldrStored: boolean;
  agentsReached: string[];
}

const ASSESSMENT_STEP =
  'Write a short quality assessment against the objectives as plain text: first "Quality: N/10", then one line per objective (met, partly met, not met) and the main outcomes.';
const NO_ASSESSMENT_STEP = 'No assessment is needed this time.';

async function safely<T>(fallback: T, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch {
    return fallback;
  }
}

async function wrapUpInput(dependencies: WrapUpDependencies, session: Session, ports: ToolPorts, reason: string): Promise<string> {
  const [record, messages, limits, note] = await Promise.all([
    safely(null, () => ports.readDocument('record')),
    safely([], () => dependencies.host.recentMessages(session.id, WRAP_UP_MESSAGES)),
    safely(null, () => dependencies.host.limitsReport(session)),
    safely(null, async () => (dependencies.note ? dependencies.note(session) : null)),
  ]);
  const text = dependencies.prompts.render(WRAP_UP_PROMPT, {
    reason,
    topic: session.plan?.expandedTopic ?? session.topic,
    objectives: session.plan ? formatObjectives(session.plan) : '- (no approved plan)',
    limits: limits ? describeLimits(limits).replace(/\n/g, '; ') : 'unknown',
    record: record ?? '(none yet)',
    messages: formatMessages(messages),
    assessmentStep: dependencies.settings().qualityAssessment ? ASSESSMENT_STEP : NO_ASSESSMENT_STEP,
  });
  return note ? `${text}\n\n${note}` : text;
}

function textsBy(items: readonly RunItem[], agentName: string): string[] {
  return items
    .flatMap((item) => (item.type === 'message_output_item' && item.agent.name === agentName ? [item.content] : []))
    .filter((text) => text.trim() !== '');
}

function parseTldr(output: unknown): TldrOutput | null {
  const candidate = typeof output === 'string' ? safeJson(output) : output;
  const parsed = tldrSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function stageIndex(stages: readonly { name: string }[], name: string): number {
  return stages.findIndex((candidate) => candidate.name === name);
}

/** Takes what one run of (part of) the chain produced. */
function collect(collected: Collected, items: readonly RunItem[], lastAgentName: string, finalOutput: unknown): void {
  const agents = [...new Set(items.flatMap((item) => ('agent' in item && item.agent ? [item.agent.name] : [])))];
  for (const name of [...agents, lastAgentName]) if (!collected.agentsReached.includes(name)) collected.agentsReached.push(name);
  const moderatorText = textsBy(items, AGENT_NAMES.moderator).join('\n');
  if (moderatorText && !moderatorText.trim().startsWith('{')) collected.assessment = moderatorText;
  if (lastAgentName === AGENT_NAMES.moderator) {
    const verdict = moderationVerdictSchema.safeParse(finalOutput);
    if (verdict.success) {
      collected.quality = verdict.data.quality;
      collected.objectivesMet = verdict.data.objectivesMet;
      if (verdict.data.message.trim()) collected.assessment = verdict.data.message;
    }
  }
  if (lastAgentName === AGENT_NAMES.scribe && typeof finalOutput === 'string' && finalOutput.trim()) collected.record = finalOutput;
  if (lastAgentName === AGENT_NAMES.tldr) collected.tldr = parseTldr(finalOutput) ?? collected.tldr;
  if (collected.assessment && collected.quality === null) collected.quality = parseQuality(collected.assessment);
}

/**
 * Runs the wrap-up chain Moderator -> Scribe -> TLDR in one SDK run (handoffs, all in one trace). When a
 * step stops short (answers instead of handing off) or fails, the next step runs on what exists, and the
 * closing message is always posted.
 */
export async function runWrapUp(dependencies: WrapUpDependencies, session: Session, reason: string): Promise<WrapUpResult> {
  const collected: Collected = {
    assessment: null,
    quality: null,
    objectivesMet: null,
    record: null,
    recordStored: false,
    tldr: null,
    tldrStored: false,
    agentsReached: [],
  };
  const basePorts = dependencies.host.toolPorts(session);
  const ports: ToolPorts = {
    ...basePorts,
    // The session is already ending: a second end request from inside the chain changes nothing.
    endSession: async () => undefined,
    // What the Scribe and the TLDR stored through update_notion (a call a guardrail rejected never gets here).
    writeDocument: async (kind, markdown) => {
      await basePorts.writeDocument(kind, markdown);
      if (kind === 'record') collected.recordStored = true;
    },
    writeSummary: async (summary) => {
      await basePorts.writeSummary(summary);
      collected.tldr = summary;
      collected.tldrStored = true;
    },
  };
  // The final record and summary are held to the same checks as the scheduled ones: every voice, real citations.
  const transcript = await safely([], () => dependencies.host.recentMessages(session.id, WRAP_UP_FACTS_MESSAGES));
  const facts = documentFacts(transcript);
  const context: AgentContext = { ports, sessionId: session.id, documentFacts: facts };
  const failedSteps: string[] = [];
  const stages = [dependencies.chain.root, dependencies.chain.scribe, dependencies.chain.tldr];
  let closingMessage = '';

  await withTrace(
    'Wrap-up',
    async () => {
      const text = await wrapUpInput(dependencies, session, ports, reason);
      let input: string | AgentInputItem[] = text;
      let stage = 0;
      // A runner of our own, to know which agent was working when a step failed.
      const runner = new Runner();
      let working: string = AGENT_NAMES.moderator;
      runner.on('agent_start', (_context, agent) => {
        working = agent.name;
      });
      while (stage < stages.length) {
        const agent = stages[stage];
        if (!agent) break;
        working = agent.name;
        try {
          const result: WrapUpRunResult = await runner.run(agent, input, { context, maxTurns: WRAP_UP_MAX_TURNS });
          const lastName = result.lastAgent?.name ?? agent.name;
          collect(collected, result.newItems, lastName, result.finalOutput);
          stage = Math.max(stage, stageIndex(stages, lastName)) + 1;
          input = result.history;
        } catch (error) {
          failedSteps.push(working);
          dependencies.logger.warn({ err: error, sessionId: session.id, step: working }, 'wrap-up step failed; continuing with what exists');
          stage = Math.max(stage, stageIndex(stages, working)) + 1;
          input = text;
        }
      }
      await storeMissingDocuments(collected, ports, dependencies.logger, session.id);
      if (!collected.recordStored) await storeRecordThroughScribe(dependencies, context, text, () => (collected.recordStored ? 'stored' : null));
      if (!collected.recordStored) await keepSomeRecord(session, ports, transcript, dependencies.logger);
      // The closing is posted inside the wrap-up trace, so it links to the trace that wrote it.
      const links = await safely([], () => dependencies.host.documentLinks(session));
      const finalRecord = await safely(null, () => ports.readDocument('record'));
      const parts = {
        reason,
        plan: session.plan,
        quality: collected.quality,
        assessment: collected.assessment,
        objectivesMet: collected.objectivesMet,
        tldr: collected.tldr,
        links,
        failedSteps,
        nextSteps: nextStepsIn(finalRecord ?? ''),
      };
      closingMessage = composeClosingMessage(parts);
      // The Moderator words its farewell; why the session ended, the findings and the links are posted as they are.
      const greeting = closingGreeting(reason);
      const spoken = await dependencies.voice.say(session, greeting, 'closing', {
        mustMention: [{ needle: reason, line: greeting }],
        appendix: closingFacts(parts),
        buttons: doneButtons(parts.nextSteps),
      });
      closingMessage = spoken?.content ?? closingMessage;
    },
    { groupId: session.id, metadata: { sessionId: session.id, kind: 'wrap_up', reason } },
  );
  return { closingMessage, quality: collected.quality, tldr: collected.tldr, failedSteps, agentsReached: collected.agentsReached };
}

/** Stores the final record and summary when the agents answered with them instead of calling update_notion. */
async function storeMissingDocuments(collected: Collected, ports: ToolPorts, logger: Logger, sessionId: string): Promise<void> {
  try {
    if (collected.record && !collected.recordStored) await ports.writeDocument('record', collected.record);
    if (collected.tldr && !collected.tldrStored) await ports.writeSummary(collected.tldr);
  } catch (error) {
    logger.warn({ err: error, sessionId }, 'could not store the final documents');
  }
}

/**
 * The chain's Scribe handed off without storing a record it was allowed to keep (a guardrail sent it back and it
 * moved on): it is asked once more, forced, to store the final record with update_notion.
 */
async function storeRecordThroughScribe(dependencies: WrapUpDependencies, context: AgentContext, input: string, stored: () => string | null): Promise<void> {
  const outcome = await runForcedAct({ agent: dependencies.chain.scribe, tool: createScribeRecordTool(), input, context, acted: stored });
  if (!outcome.acted) dependencies.logger.warn({ sessionId: context.sessionId, err: outcome.error }, 'the final record was not stored; the last one stays');
}

/**
 * A session whose Scribe never stored a record (its model failed every pass, and the final one) gets the record its
 * scheduled pass writes then: statistics and the timeline. The closing links to the record, and the transcript is
 * all there is to keep; a record some pass stored stays as it is.
 */
async function keepSomeRecord(session: Session, ports: ToolPorts, transcript: ChatMessage[], logger: Logger): Promise<void> {
  try {
    if (await ports.readDocument('record')) return;
    const note = 'The Scribe model failed at the wrap-up; this record holds plain statistics and the timeline.';
    await ports.writeDocument('record', fallbackRecord(recordSubject(session), recordable(transcript), note));
  } catch (error) {
    logger.warn({ err: error, sessionId: session.id }, 'could not store a statistics record');
  }
}
