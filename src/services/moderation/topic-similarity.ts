import type { ChatMessage, SessionPlan } from '../domain.ts';
import type { EmbedFunction } from './moderation-host.ts';

/** Cosine similarity of two vectors (0 when either is empty or zero). */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

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
