/**
 * A model that does exactly what the request's *shape* allows and nothing our prompts merely ask for:
 * it never volunteers a tool call or a handoff, answers structured output by its JSON schema alone, and
 * calls a tool only when `tool_choice` forces one. Real models behave like this often enough that every
 * flow must reach its end with it; the demo brain, which follows our prompts, hides such dead ends.
 */
import {
  sampleFromSchema,
  type ChatCompletionRequest,
  type ChatRequestContext,
  type ChatResponder,
  type SimulatedReply,
} from '../../../src/simulator/index.ts';
import { functionTools, messageText } from '../../../src/simulator/chat-types.ts';

/** What the forced tool of a request is: a named function, `required` (any tool), or none. */
function forcedToolName(body: ChatCompletionRequest): string | undefined {
  const choice = body.tool_choice;
  const tools = functionTools(body);
  if (tools.length === 0) return undefined;
  if (choice === 'required') return tools[0]?.function.name;
  if (typeof choice === 'object' && choice !== null && 'function' in choice) {
    const named = (choice as { function?: { name?: unknown } }).function?.name;
    return typeof named === 'string' ? named : undefined;
  }
  return undefined;
}

/** A few words of the latest user message, so answers read as if about the conversation. */
function latestWords(body: ChatCompletionRequest): string {
  const lastUser = body.messages.findLast((message) => message.role === 'user');
  const words = (lastUser ? messageText(lastUser) : '').replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  return words || 'the topic';
}

/** The literal model's answer to one request. */
export function literalReply(body: ChatCompletionRequest): SimulatedReply {
  const topic = latestWords(body);
  const forced = forcedToolName(body);
  if (forced) {
    const tool = functionTools(body).find((candidate) => candidate.function.name === forced);
    const args = sampleFromSchema(tool?.function.parameters ?? { type: 'object', properties: {} }, { topic });
    return { kind: 'tool_calls', calls: [{ name: forced, arguments: JSON.stringify(args) }] };
  }
  const format = body.response_format;
  if (format && format.type === 'json_schema') return { kind: 'json', value: sampleFromSchema(format.json_schema.schema, { topic }) };
  return { kind: 'text', text: `On ${topic}: I would start from what we know and test the riskiest assumption first.` };
}

/** A responder for `startSimulator`/`startFakeOpenRouter`: answers every request literally. */
export const literalResponder: ChatResponder = (context: ChatRequestContext) => literalReply(context.body);
