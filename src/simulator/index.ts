/** The OpenAI-compatible simulator: demo mode's models and the base of the test fake. */
export { startSimulator, type SimulatorOptions, type SimulatorHandle, type ObservedRequest } from './simulator-server.ts';
export type {
  SimulatedReply,
  SimulatedFault,
  SimulatedSearchResult,
  SimulatedToolCall,
  ReplyTiming,
  ChatResponder,
  ChatRequestContext,
  AgentIdentity,
  ChatCompletionRequest,
} from './chat-types.ts';
export { demoReply, READABLE_PACE } from './demo-brain.ts';
export { embedText, EMBEDDING_DIMENSIONS } from './embeddings.ts';
export { SIMULATED_MODELS, costOf, priceOf } from './pricing.ts';
export { sampleFromSchema } from './json-schema-sample.ts';
