import { Runner, withTrace, type Agent, type AgentOutputType, type RunErrorHandlers, type Tool, type ToolsToFinalOutputResult } from '@openai/agents';
import type { AgentContext } from '../core/agent-context.ts';

/** One act a role must perform through its tool (post a message, write a document). */
export interface ForcedActRequest<Output extends AgentOutputType> {
  /** The role's agent; it is cloned with the one tool, forced, and nothing else. */
  agent: Agent<AgentContext, Output>;
  tool: Tool<AgentContext>;
  /** What the role is asked to do (and the draft it may improve). */
  input: string;
  context: AgentContext;
  /** What the tool acted with once its port really ran (a call a guardrail rejected does not count), else null. */
  acted: () => string | null;
  /** Keep the role's output guardrails (they then judge what the tool acted with, or a prose answer). Default true. */
  outputGuardrails?: boolean;
  /** Calls the model may make, rejected ones included, before the service takes over (default 3). */
  attempts?: number;
  signal?: AbortSignal;
  /** How the run reads a prose answer the role's output type cannot parse (a model that ignored the forced call). */
  errorHandlers?: RunErrorHandlers<AgentContext, Agent<AgentContext, Output>>;
  /** When set, the act runs in its own trace (grouped under the session). */
  trace?: { name: string; metadata: Record<string, string> };
}

/** What a forced act did: whether the tool acted, the run's final output, and why it failed when it did. */
export interface ForcedActOutcome {
  acted: boolean;
  /** The run's final output: what the tool acted with, or the prose of a model that ignored the forced call. */
  finalOutput: unknown;
  error: unknown;
}

const CONTINUE: ToolsToFinalOutputResult = { isFinalOutput: false, isInterrupted: undefined };

/**
 * Runs a role so that its one mandatory action goes through its tool: the tool is forced on every model call
 * (`toolChoice` named, never reset), a call a guardrail rejects goes back to the model with the reason, and the
 * run ends as soon as the tool has acted. Real models ignore tool instructions and answer in prose; forcing the
 * call is what makes the action reach the tool. When the model still fails, the caller falls back to doing it
 * itself, so the act is guaranteed either way and the trace says which.
 */
export async function runForcedAct<Output extends AgentOutputType>(request: ForcedActRequest<Output>): Promise<ForcedActOutcome> {
  const forced = request.agent.clone({
    tools: [request.tool],
    handoffs: [],
    mcpServers: [],
    modelSettings: { ...request.agent.modelSettings, toolChoice: request.tool.name },
    resetToolChoice: false,
    // The act's content is checked by the tool's input guardrails before it runs; a role whose output guardrails
    // judge something else (the Moderator's verdict) drops them for the act.
    ...(request.outputGuardrails === false ? { outputGuardrails: [] } : {}),
    toolUseBehavior: async () => {
      const content = request.acted();
      return content === null ? CONTINUE : { isFinalOutput: true, isInterrupted: undefined, finalOutput: content };
    },
  });
  const attempt = async (): Promise<ForcedActOutcome> => {
    try {
      const result = await new Runner().run(forced, request.input, {
        context: request.context,
        maxTurns: request.attempts ?? 3,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.errorHandlers ? { errorHandlers: request.errorHandlers } : {}),
      });
      return { acted: request.acted() !== null, finalOutput: result.finalOutput, error: null };
    } catch (error) {
      return { acted: request.acted() !== null, finalOutput: null, error };
    }
  };
  if (!request.trace) return attempt();
  return withTrace(request.trace.name, attempt, { groupId: request.context.sessionId, metadata: request.trace.metadata });
}
