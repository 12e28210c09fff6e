/** Runs the Scribe and the TLDR outside the wrap-up chain (scheduled passes), without tools. */
import { run, withTrace } from '@openai/agents';
import type { AgentContext } from '../../core/agent-context.ts';
import { createScribeAgent } from '../../agents/scribe/scribe-agent.ts';
import { createTldrAgent, tldrErrorHandlers } from '../../agents/tldr/tldr-agent.ts';
import type { TldrOutput } from '../../core/schemas.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { DocumentationDependencies } from './documentation-types.ts';

/** Ports for a scheduled pass: the agents run without tools, so anything else is refused. */
export function passContext(sessionId: string): AgentContext {
  const refuse = async (): Promise<never> => {
    throw new BrainstormError('internal', 'This tool is not available in a scheduled documentation pass.');
  };
  const ports: ToolPorts = {
    sessionId,
    postToRoom: refuse,
    checkLimits: refuse,
    startSession: refuse,
    endSession: refuse,
    writeDocument: refuse,
    readDocument: refuse,
    recallSessions: refuse,
  };
  return { ports, sessionId };
}

/** One Scribe pass: the full updated record as markdown. Throws when the model fails. */
export async function runScribe(
  deps: Pick<DocumentationDependencies, 'models' | 'prompts'>,
  sessionId: string,
  title: string,
  input: string,
  signal: AbortSignal,
): Promise<string> {
  const agent = createScribeAgent({ model: deps.models.role('scribe'), prompts: deps.prompts, title }).clone({ tools: [] });
  const result = await withTrace('Scribe pass', () => run(agent, input, { context: passContext(sessionId), maxTurns: 2, signal }), {
    groupId: sessionId,
    metadata: { sessionId, kind: 'scribe' },
  });
  const output = typeof result.finalOutput === 'string' ? result.finalOutput.trim() : '';
  if (!output) throw new BrainstormError('model_unavailable', 'The Scribe returned an empty record.');
  return output;
}

/** One TLDR pass over a record: summary and key findings (parsed from text when the JSON is invalid). */
export async function runTldr(
  deps: Pick<DocumentationDependencies, 'models' | 'prompts'>,
  sessionId: string,
  record: string,
  signal: AbortSignal,
): Promise<TldrOutput> {
  const agent = createTldrAgent({ model: deps.models.role('tldr'), prompts: deps.prompts }).clone({ tools: [] });
  const input = `The Scribe's detailed record:\n\n${record}`;
  const result = await withTrace(
    'TLDR pass',
    () => run(agent, input, { context: passContext(sessionId), maxTurns: 2, signal, errorHandlers: tldrErrorHandlers() }),
    {
      groupId: sessionId,
      metadata: { sessionId, kind: 'tldr' },
    },
  );
  if (!result.finalOutput) throw new BrainstormError('model_unavailable', 'The TLDR returned no output.');
  return result.finalOutput;
}
