import type { SessionPlan } from '../../src/core/domain.ts';

/** A valid plan for scripted Planner replies, with overridable parameters. */
export function scriptedPlan(parameters: Partial<SessionPlan['parameters']> = {}): SessionPlan {
  return {
    expandedTopic: 'How a five-person SaaS team can adopt feature flags for safer releases.',
    objectives: ['Pick a flag strategy', 'Define a rollout process', 'List the risks'],
    keyAreas: ['tooling', 'process', 'testing'],
    expectedFlow: ['options', 'trade-offs', 'recommendation'],
    parameters: { maxMessages: 40, maxTokens: 200_000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 70, ...parameters },
    estimate: { durationMinutes: 15, costUsd: 0.2, messages: 40 },
    critiqueRound: false,
  };
}
