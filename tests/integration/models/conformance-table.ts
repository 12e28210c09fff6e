/**
 * The conformance table: every way a model misbehaves on OpenRouter, as scripted replies for the fake, and the
 * helpers each role's suite shares (a catalog on a manual clock, a driver that lets back-offs and deadlines pass).
 */
import { ModelCatalog } from '../../../src/agents/models/index.ts';
import { buildConfig } from '../../../src/config/load-config.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import type { SimulatedReply } from '../../../src/simulator/index.ts';
import { replies, type FakeOpenRouter } from '../../fakes/openrouter/fake-openrouter.ts';

/** The row names, one per misbehaviour. */
export type RowName =
  | 'ignores the tool'
  | 'tool call with "" arguments'
  | 'invalid tool arguments'
  | 'unknown tool name'
  | 'two tool calls at once'
  | 'a handoff instead of the tool'
  | 'JSON in code fences'
  | 'JSON followed by prose'
  | 'refusal'
  | 'refusal as text'
  | 'finish_reason length mid-answer'
  | 'content null, only reasoning'
  | 'empty content'
  | 'stream without a usage chunk'
  | '400 context length exceeded'
  | '402 out of credits'
  | '404 model not found'
  | '429 with retry-after'
  | '500 then 503'
  | 'a hang past the timeout'
  | 'an error inside a 200 stream';

/** What a role's rows are built from: its tool, a valid JSON answer (or text), and a plain-text answer. */
export interface RoleShape {
  tool: string;
  toolArgs: unknown;
  json: unknown;
  text: string;
}

/** The scripted replies of every row for one role (the literal model answers whatever follows them). */
export function conformanceRows(shape: RoleShape): Record<RowName, SimulatedReply[]> {
  return {
    'ignores the tool': [replies.text(shape.text)],
    'tool call with "" arguments': [replies.toolCall(shape.tool, '')],
    'invalid tool arguments': [replies.toolCall(shape.tool, '{"content": "unterminated')],
    'unknown tool name': [replies.toolCall('launch_rockets', { now: true })],
    'two tool calls at once': [replies.toolCalls([shape.tool, shape.toolArgs], [shape.tool, shape.toolArgs])],
    'a handoff instead of the tool': [replies.toolCall('transfer_to_Planner', {})],
    'JSON in code fences': [replies.json(shape.json, { fenced: true })],
    'JSON followed by prose': [replies.jsonThenProse(shape.json)],
    refusal: [replies.refusal()],
    'refusal as text': [replies.text("I'm sorry, but I can't help with that request.")],
    'finish_reason length mid-answer': [replies.truncated(`${JSON.stringify(shape.json).slice(0, 24)}`)],
    'content null, only reasoning': [replies.reasoningOnly()],
    'empty content': [replies.text('')],
    'stream without a usage chunk': [{ kind: 'json', value: shape.json, omitUsage: true }],
    '400 context length exceeded': [
      replies.httpError(400, "This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens."),
    ],
    '402 out of credits': [replies.httpError(402, 'Insufficient credits. Add more using https://openrouter.ai/credits')],
    '404 model not found': [replies.httpError(404, 'No endpoints found for this model.')],
    '429 with retry-after': [replies.rateLimited(5)],
    '500 then 503': [replies.httpError(500), replies.httpError(503)],
    'a hang past the timeout': [replies.hang()],
    'an error inside a 200 stream': [replies.streamError('Upstream provider error', 502)],
  };
}

/** A model catalog pointed at the fake, on a manual clock (deadline 120 s, back-offs 1 s, 2 s, ...). */
export function conformanceCatalog(fake: FakeOpenRouter, clock = new ManualClock()): { clock: ManualClock; models: ModelCatalog } {
  const config = buildConfig({ OPENROUTER_BASE_URL: fake.url, OPENROUTER_API_KEY: 'sk-conformance' });
  return { clock, models: new ModelCatalog(config.models, { clock }) };
}

/** Settles `action` while moving the manual clock past every back-off and deadline it waits on (never the wall clock). */
export async function driveClock<T>(clock: ManualClock, action: Promise<T>): Promise<{ value: T | undefined; error: unknown }> {
  let done = false;
  const outcome = action.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  void outcome.then(() => {
    done = true;
  });
  while (!done) {
    if (clock.pendingSleepers > 0) await clock.advance(1000);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return outcome;
}

/** The rows a role recovers from (the run ends with a usable answer); the others fail with a typed, clear error. */
export function partition(names: RowName[], failing: RowName[]): { recovers: RowName[]; fails: RowName[] } {
  return { recovers: names.filter((name) => !failing.includes(name)), fails: failing };
}

/** Every row name, in table order. */
export const ROW_NAMES = Object.keys(conformanceRows({ tool: 't', toolArgs: {}, json: {}, text: '' })) as RowName[];
