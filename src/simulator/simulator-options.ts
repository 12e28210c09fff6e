/** How a simulator is started and what it reports (apart from the server, so its endpoints need not import it). */
import type { Clock } from '../core/clock.ts';
import type { ChatResponder, ReplyTiming } from './chat-types.ts';
import type { SimulatedModel } from './pricing.ts';

/** One request as the simulator saw it (the Authorization header is left out). */
export interface ObservedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** How to start a simulator. */
export interface SimulatorOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Delay before every response starts. */
  latencyMs?: number;
  /** Delay between the start of a stream and its first token. */
  firstTokenMs?: number;
  /** Paces streamed tokens; unset streams as fast as possible. */
  tokensPerSecond?: number;
  /** Timing of the demo brain's participant answers (a readable demo); unset: the defaults above. */
  participantPace?: ReplyTiming;
  /** Drives every delay; tests pass a ManualClock. */
  clock?: Clock;
  /** Chooses replies before the demo brain (the test fake's scripts). */
  responder?: ChatResponder;
  /** Sees every request (the test fake's log). */
  onRequest?: (request: ObservedRequest) => void;
  /** Answers `/embeddings` with 404 when false (an endpoint without embeddings). */
  embeddings?: boolean;
  /** False: no answer's usage carries `cost` (an endpoint other than OpenRouter). Default true. */
  reportsCost?: boolean;
  /** The models `/models` lists. */
  models?: readonly SimulatedModel[];
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (401 otherwise, like OpenRouter). */
  apiKey?: string;
  /**
   * False: response and tool call ids are numbered from 1 by each server, so two servers (or one restarted) give the
   * same ids, as some OpenAI-compatible servers do (Ollama's `chatcmpl-` ids run from 0 to 998). Default true: ids
   * unique across servers, as OpenRouter's are.
   */
  uniqueIds?: boolean;
}
