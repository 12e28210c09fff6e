/**
 * Moderator benchmark: how many Moderator model calls a 100-message session that stays on topic costs, with
 * the embedding pre-test (simulator embeddings) in front of the model.
 */
import { setTraceProcessors } from '@openai/agents';
import pino from 'pino';
import { ModelCatalog } from '../src/agents/models/model-catalog.ts';
import { createModeratorAgent } from '../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../src/agents/prompts/prompt-library.ts';
import { createScribeAgent } from '../src/agents/scribe/scribe-agent.ts';
import { createTldrAgent } from '../src/agents/tldr/tldr-agent.ts';
import { buildConfig } from '../src/config/load-config.ts';
import { systemClock } from '../src/core/clock.ts';
import type { SessionPlan } from '../src/core/domain.ts';
import { ModerationService } from '../src/services/moderation/moderation-service.ts';
import { startSimulator } from '../src/simulator/index.ts';
import { FakeHost } from '../tests/support/fake-moderation-host.ts';

/** One measured figure. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const MESSAGES = 100;
const SPEAKERS = ['Claude', 'ChatGPT', 'Grok'];
const PLAN: SessionPlan = {
  expandedTopic: 'Choose a caching strategy for the public API to cut response latency',
  objectives: ['Pick a cache layer for API responses', 'Agree on cache invalidation rules', 'Set latency targets for cached responses'],
  keyAreas: ['cache layer', 'cache invalidation', 'latency targets'],
  expectedFlow: ['options', 'trade-offs', 'decision'],
  parameters: { maxMessages: 200, maxTokens: 500_000, maxCostUsd: 5, timeoutMinutes: 60, maxContextPercent: 70 },
  estimate: { durationMinutes: 20, costUsd: 0.5, messages: 100 },
  critiqueRound: false,
};
const ON_TOPIC = [
  'A Redis cache layer in front of the API responses would cut latency for repeated reads.',
  'Cache invalidation rules: expire API responses on writes, and keep a short TTL as a safety net.',
  'Latency targets for cached responses: p95 under 50 ms, uncached under 300 ms.',
  'A CDN cache layer suits public API responses; invalidation through surrogate keys.',
  'We should measure cache hit rate and latency before picking the cache layer.',
  'Invalidation on writes is the hard part: event-driven cache invalidation keeps responses fresh.',
];

/** Runs a 100-message on-topic session through the moderation service against the simulator. */
export async function runModeratorBench(): Promise<BenchResult[]> {
  setTraceProcessors([]);
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0, latencyMs: 0, firstTokenMs: 0 });
  try {
    const config = buildConfig({ OPENROUTER_API_KEY: 'bench-openrouter-key', OPENROUTER_BASE_URL: simulator.url, LOG_LEVEL: 'silent' });
    const logger = pino({ level: 'silent' });
    const catalog = new ModelCatalog(config.models, { clock: systemClock, logger });
    const prompts = new PromptLibrary();
    const host = new FakeHost();
    host.session = { ...host.session, topic: PLAN.expandedTopic, plan: PLAN };
    const service = new ModerationService({
      host,
      moderator: createModeratorAgent({ model: catalog.role('moderator'), prompts }),
      scribe: createScribeAgent({ model: catalog.role('scribe'), prompts }),
      tldr: createTldrAgent({ model: catalog.role('tldr'), prompts }),
      prompts,
      settings: () => config.moderator,
      embed: (texts) => catalog.embed(texts),
      logger,
    });
    const similarities: number[] = [];
    let checks = 0;
    for (let index = 0; index < MESSAGES; index += 1) {
      host.say([ON_TOPIC[index % ON_TOPIC.length] ?? ''], [SPEAKERS[(host.messages.length + 1) % SPEAKERS.length] ?? 'Claude']);
      const outcome = await service.afterMessage(host.session.id);
      if (outcome.action !== 'skipped') checks += 1;
      if (outcome.similarity !== null) similarities.push(outcome.similarity);
    }
    const meanSimilarity = similarities.reduce((sum, value) => sum + value, 0) / Math.max(similarities.length, 1);
    return [
      { name: 'moderator_model_calls_per_100_messages', value: service.moderatorModelCalls, unit: 'calls' },
      { name: 'moderator_checks_per_100_messages', value: checks, unit: 'checks' },
      { name: 'moderator_on_topic_similarity', value: Math.round(meanSimilarity * 1000) / 1000, unit: 'cosine' },
      { name: 'moderator_posts_on_topic', value: host.posts.length, unit: 'messages' },
    ];
  } finally {
    await simulator.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runModeratorBench(), null, 2));
}
