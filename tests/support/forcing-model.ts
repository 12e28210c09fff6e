/**
 * A model wrapper that behaves as OpenAI and most providers do when `tool_choice` names a tool: it calls that
 * tool, whatever the scripted model behind it would have said (the script is not consumed). Forced acts of the
 * Moderator, Scribe and TLDR then need no steps in a test's script, as they need no cooperation from a real model.
 */
import { Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { functionCall } from '@openai/agents/testing';

/** The tool a request forces by name (not `auto`, `required` or `none`), when it is offered. */
function forcedTool(request: ModelRequest): string | undefined {
  const choice = request.modelSettings.toolChoice;
  if (typeof choice !== 'string' || ['auto', 'required', 'none'].includes(choice)) return undefined;
  return request.tools.some((tool) => tool.name === choice) ? choice : undefined;
}

function lastUserText(request: ModelRequest): string {
  if (typeof request.input === 'string') return request.input;
  for (const item of [...request.input].reverse()) {
    if (item.type === 'message' && item.role === 'user') return typeof item.content === 'string' ? item.content : JSON.stringify(item.content);
  }
  return '';
}

/** What a cooperative model passes to a forced tool: the draft it was given, or a usage read with no arguments. */
function forcedArguments(name: string, request: ModelRequest): Record<string, unknown> {
  if (name !== 'post_to_discord') return {};
  const text = lastUserText(request);
  const marker = text.indexOf('Draft:\n');
  return { content: marker >= 0 ? text.slice(marker + 'Draft:\n'.length).trim() : text };
}

let calls = 0;

/** Wraps `model` so that every request forcing a tool gets a call of that tool. */
export function honouringToolChoice(model: Model): Model {
  return {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const forced = forcedTool(request);
      if (!forced) return model.getResponse(request);
      calls += 1;
      return {
        usage: new Usage(),
        output: [functionCall(forced, forcedArguments(forced, request), { callId: `forced_${calls}` })],
        responseId: `forced_response_${calls}`,
      };
    },
    getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      return model.getStreamedResponse(request);
    },
  };
}
