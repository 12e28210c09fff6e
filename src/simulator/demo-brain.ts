import { functionTools, messageText, type ChatCompletionRequest, type JsonSchema, type ReplyTiming, type SimulatedReply } from './chat-types.ts';
import { identify, offeredTools, systemText, toolNameOf, topicOf } from './conversation-reading.ts';
import { demoIdeaExtraction } from './demo-ideas.ts';
import { participantAnswer, plannerPlan, plannerQuestions } from './demo-writing.ts';
import { tldrSummary } from './demo-tldr.ts';
import { scribeRecord } from './demo-record.ts';
import { sampleFromSchema } from './json-schema-sample.ts';
import { demoCritique } from './demo-critique.ts';

function requestedSchema(body: ChatCompletionRequest): JsonSchema | undefined {
  const format = body.response_format;
  return format?.type === 'json_schema' ? format.json_schema.schema : undefined;
}

/** A JSON reply that validates against the requested schema, built around `hint`. */
function jsonReply(body: ChatCompletionRequest, hint: unknown): SimulatedReply {
  const schema = requestedSchema(body);
  return { kind: 'json', value: schema ? sampleFromSchema(schema, { topic: topicOf(body), hint }) : hint };
}

/** A call of an offered tool, its arguments shaped by the tool's parameter schema. */
function toolCall(body: ChatCompletionRequest, name: string, hint: unknown): SimulatedReply {
  const parameters = functionTools(body).find((tool) => tool.function.name === name)?.function.parameters;
  const value = parameters ? sampleFromSchema(parameters, { topic: topicOf(body), hint }) : (hint ?? {});
  return { kind: 'tool_calls', calls: [{ name, arguments: JSON.stringify(value) }] };
}

function inWrapUp(body: ChatCompletionRequest): boolean {
  return /wrap[- ]?up/i.test(systemText(body));
}

/** The function a request's `tool_choice` forces, if any (a real model must call it). */
function forcedTool(body: ChatCompletionRequest): string | undefined {
  const choice = body.tool_choice as { type?: unknown; function?: { name?: unknown } } | string | undefined;
  return typeof choice === 'object' && choice?.type === 'function' && typeof choice.function?.name === 'string' ? choice.function.name : undefined;
}

function plannerReply(body: ChatCompletionRequest): SimulatedReply {
  const tools = offeredTools(body);
  const last = body.messages.at(-1);
  if (last?.role === 'tool' && toolNameOf(body, last) === 'start_session') {
    if (/not approved|rejected|asked for changes/i.test(messageText(last))) {
      if (forcedTool(body) === 'start_session') return toolCall(body, 'start_session', plannerPlan(body));
      return jsonReply(body, { questions: ['What should change in the plan? (simulated)'] });
    }
    if (tools.includes('transfer_to_Moderator')) return toolCall(body, 'transfer_to_Moderator', {});
    return jsonReply(body, { questions: [] });
  }
  // The presets and a starting conversation are context the Planner is given, not a person's answer.
  const context = /^(?:Presets \(|This session was started inside a conversation|[^\n]* chose the preset ")/;
  const userMessages = body.messages.filter((message) => message.role === 'user' && !context.test(messageText(message)));
  if (userMessages.length === 1 && !body.messages.some((message) => message.role === 'tool')) {
    return jsonReply(body, { questions: plannerQuestions(topicOf(body)) });
  }
  if (tools.includes('start_session')) return toolCall(body, 'start_session', plannerPlan(body));
  return jsonReply(body, { questions: [] });
}

function handoffInWrapUp(body: ChatCompletionRequest, target: string): SimulatedReply | undefined {
  const name = `transfer_to_${target}`;
  return inWrapUp(body) && offeredTools(body).includes(name) ? toolCall(body, name, {}) : undefined;
}

/** The objectives of the plan the Planner passed to start_session, when the Moderator sees that call. */
function approvedObjectives(body: ChatCompletionRequest): string[] | undefined {
  for (const message of body.messages) {
    for (const call of message.tool_calls ?? []) {
      if (call.function?.name !== 'start_session') continue;
      try {
        const plan = JSON.parse(call.function.arguments ?? '{}') as { objectives?: unknown };
        if (Array.isArray(plan.objectives)) return plan.objectives.filter((item): item is string => typeof item === 'string');
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function openingReply(body: ChatCompletionRequest, objectives: string[]): SimulatedReply {
  const list = objectives.map((objective) => `• ${objective}`).join('\n');
  return jsonReply(body, {
    action: 'continue',
    drifting: false,
    objectivesMet: false,
    message: `Welcome, everyone — the plan is approved. Our objectives:\n${list}\nClaude, ChatGPT and Grok: share your first ideas, and people, jump in any time. (simulated)`,
    target: '',
    reason: 'Opening the approved discussion (simulated).',
    quality: 0,
  });
}

function moderatorReply(body: ChatCompletionRequest): SimulatedReply {
  const objectives = approvedObjectives(body);
  const wrapUpAsked = body.messages.some((message) => message.role === 'user' && /^\s*wrap-up/i.test(messageText(message)));
  if (objectives && !wrapUpAsked) return openingReply(body, objectives);
  return (
    handoffInWrapUp(body, 'Scribe') ??
    jsonReply(body, {
      action: 'continue',
      drifting: false,
      objectivesMet: false,
      message: 'Good progress so far — keep building on each other’s ideas. (simulated)',
      target: '',
      reason: 'The discussion is on topic and moving forward (simulated).',
      quality: 7,
    })
  );
}

/** A pace people can read along with: about six seconds for a participant's answer. */
export const READABLE_PACE: ReplyTiming = { latencyMs: 600, firstTokenMs: 900, tokensPerSecond: 12 };

/** The draft a service asks a role to post (after a line "Draft:"), or the latest user message. */
function draftOf(body: ChatCompletionRequest): string {
  const lastUser = body.messages.findLast((message) => message.role === 'user');
  const text = lastUser ? messageText(lastUser) : '';
  const marker = text.search(/^Draft:\s*$/m);
  return marker >= 0
    ? text
        .slice(marker)
        .replace(/^Draft:\s*\n/, '')
        .trim()
    : text.trim();
}

/** A role's answer to a forced tool call: the act its prompt asks for, written as the demo writes it. */
function forcedReply(body: ChatCompletionRequest, role: string): SimulatedReply | undefined {
  const forced = forcedTool(body);
  if (!forced) return undefined;
  if (forced === 'post_to_discord') return toolCall(body, forced, { content: draftOf(body) });
  if (forced === 'update_notion' && role === 'scribe') return toolCall(body, forced, { markdown: scribeRecord(body) });
  if (forced === 'update_notion' && role === 'tldr') return toolCall(body, forced, tldrSummary(body));
  if (role === 'moderator' || role === 'scribe' || role === 'tldr') return toolCall(body, forced, {});
  return undefined;
}

/** The demo brain: the default reply to a request, keyed on the agent protocol's first instruction line; `pace` times participants' answers. */
export function demoReply(body: ChatCompletionRequest, pace?: ReplyTiming): SimulatedReply {
  const agent = identify(body);
  const forced = forcedReply(body, agent.role);
  if (forced) return forced;
  switch (agent.role) {
    case 'planner':
      return plannerReply(body);
    case 'moderator':
      return moderatorReply(body);
    case 'scribe':
      return handoffInWrapUp(body, 'TLDR') ?? (requestedSchema(body) ? jsonReply(body, undefined) : { kind: 'text', text: scribeRecord(body) });
    case 'tldr':
      return jsonReply(body, tldrSummary(body));
    case 'ideas':
      return jsonReply(body, demoIdeaExtraction(body));
    case 'participant':
      if (requestedSchema(body) && /critique round/i.test(systemText(body))) return jsonReply(body, demoCritique(agent.name, body));
      return requestedSchema(body)
        ? jsonReply(body, undefined)
        : { kind: 'text', text: participantAnswer(agent.name, body), ...(pace ? { timing: pace } : {}) };
    default:
      return requestedSchema(body) ? jsonReply(body, undefined) : { kind: 'text', text: `A simulated answer about ${topicOf(body)}. (simulated)` };
  }
}
