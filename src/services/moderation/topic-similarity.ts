import type { ChatMessage, SessionPlan } from '../../core/domain.ts';
import type { EmbedFunction } from './moderation-host.ts';
import { cosineSimilarity } from '../../repositories/embeddings-repository.ts';

export { cosineSimilarity };

/** The text a session's plan is measured against. */
export function planText(plan: SessionPlan): string {
  return [plan.expandedTopic, ...plan.objectives, ...plan.keyAreas].join('\n');
}

/**
 * Measures how close recent messages stay to the plan with embeddings: the cheap first test for drift.
 * The plan's vector is cached per session. `null` means embeddings are unavailable.
 */
export class TopicSimilarity {
  private readonly planVectors = new Map<string, number[]>();
  private available: boolean | null = null;

  constructor(private readonly embed: EmbedFunction | null) {}

  /** Whether embeddings answered last time (null before the first try). */
  get isAvailable(): boolean | null {
    return this.embed ? this.available : false;
  }

  /** Asks once whether embeddings work (for the start-up line). */
  async probe(): Promise<boolean> {
    if (!this.embed) return (this.available = false);
    try {
      const vectors = await this.embed(['probe']);
      this.available = vectors !== null && vectors.length === 1;
    } catch {
      this.available = false;
    }
    return this.available;
  }

  /** Similarity of the messages (as one text) to the plan, or null when embeddings are unavailable. */
  async measure(sessionId: string, plan: SessionPlan, messages: readonly ChatMessage[]): Promise<number | null> {
    if (!this.embed || messages.length === 0) return null;
    const recent = messages.map((message) => message.text).join('\n');
    const cached = this.planVectors.get(sessionId);
    let vectors: number[][] | null;
    try {
      vectors = await this.embed(cached ? [recent] : [planText(plan), recent]);
    } catch {
      vectors = null;
    }
    this.available = vectors !== null;
    if (!vectors) return null;
    const planVector = cached ?? vectors[0];
    const recentVector = cached ? vectors[0] : vectors[1];
    if (!planVector || !recentVector) return null;
    if (!cached) this.planVectors.set(sessionId, planVector);
    return cosineSimilarity(planVector, recentVector);
  }

  /** Forgets a finished session's cached plan vector. */
  forget(sessionId: string): void {
    this.planVectors.delete(sessionId);
  }
}
