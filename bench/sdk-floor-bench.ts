/**
 * turn_sdk_floor_ms: the part of a turn that is the Agents SDK's and the openai client's, with nothing of ours. The
 * three participant calls of a real turn (their instructions, input items and models, taken from the app at the
 * middle of the overhead figure's turns) run through a bare `Runner` with tracing off, against the same fake models in
 * a process of their own, each stream read to its end as the app reads it. No database, no guardrails, no tracing, no
 * delivery: `turn_overhead_ms` minus this is what our code adds to a turn.
 */
import OpenAI from 'openai';
import { Agent, OpenAIChatCompletionsModel, Runner, assistant, setTracingDisabled, user, type AgentInputItem } from '@openai/agents';
import { activeSession, percentile, round, startBenchApp, stopBenchApp, timedTurn, type BenchResult } from './bench-app.ts';
import { startModelProcess } from './model-process.ts';
import { mainThreadCpuMs } from './process-cpu.ts';
import { messageText, type ChatCompletionRequest } from '../src/simulator/chat-types.ts';
import { systemText } from '../src/simulator/conversation-reading.ts';

/** Turns before the requests are taken: the middle of the overhead figure's 5 + 200. */
const CAPTURE_AFTER_TURNS = 100;
/** Measured bare turns, after twenty to warm up (as the overhead figure's 200). */
const TURNS = 200;

/** The three participant requests of a turn well into a session, as the app sent them. */
async function captureTurnRequests(): Promise<ChatCompletionRequest[]> {
  const bench = await startBenchApp(0, 'pglite');
  try {
    const session = await activeSession(bench);
    for (let turn = 0; turn < CAPTURE_AFTER_TURNS; turn += 1) await timedTurn(bench, session);
    return bench.fake.chats
      .filter((chat) => chat.agent.role === 'participant')
      .slice(-3)
      .map((chat) => chat.body);
  } finally {
    await stopBenchApp(bench);
  }
}

/** A bare agent and its input for one captured request. */
function bareCall(client: OpenAI, request: ChatCompletionRequest): { agent: Agent; input: AgentInputItem[] } {
  const input = request.messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => (message.role === 'assistant' ? assistant(messageText(message)) : user(messageText(message))));
  return { agent: new Agent({ name: 'participant', instructions: systemText(request), model: new OpenAIChatCompletionsModel(client, request.model) }), input };
}

/** The floor figures: wall time of the three bare calls at once, and the main thread's CPU per such turn. */
export async function sdkFloor(): Promise<BenchResult[]> {
  const requests = await captureTurnRequests();
  const models = await startModelProcess({ latencyMs: 0, firstTokenMs: 0 });
  setTracingDisabled(true);
  try {
    const client = new OpenAI({ baseURL: models.url, apiKey: 'bench' });
    const runner = new Runner();
    const calls = requests.map((request) => bareCall(client, request));
    const turn = async (): Promise<number> => {
      const started = performance.now();
      await Promise.all(
        calls.map(async ({ agent, input }) => {
          const result = await runner.run(agent, input, { stream: true });
          for await (const _text of result.toTextStream()) void _text;
          await result.completed;
        }),
      );
      return performance.now() - started;
    };
    for (let warm = 0; warm < 20; warm += 1) await turn();
    const cpuBefore = mainThreadCpuMs();
    const times: number[] = [];
    for (let measured = 0; measured < TURNS; measured += 1) times.push(await turn());
    const cpuAfter = mainThreadCpuMs();
    return [
      { name: 'turn_sdk_floor_ms_p50', value: round(percentile(times, 0.5), 1), unit: 'ms' },
      { name: 'turn_sdk_floor_ms_p99', value: round(percentile(times, 0.99), 1), unit: 'ms' },
      ...(cpuBefore !== null && cpuAfter !== null
        ? [{ name: 'turn_sdk_floor_main_thread_cpu_ms', value: round((cpuAfter - cpuBefore) / TURNS, 1), unit: 'ms' }]
        : []),
    ];
  } finally {
    setTracingDisabled(false);
    await models.close();
  }
}
