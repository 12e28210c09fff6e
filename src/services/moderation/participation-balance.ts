import type { LimitsReport } from '../../core/ports.ts';

/** A participation imbalance the Moderator should act on. */
export type BalanceFinding = { kind: 'quiet'; name: string; messages: number } | { kind: 'dominant'; name: string; share: number } | null;

/**
 * Finds the quietest participant who has fallen well behind, else one who dominates. Only AI participants
 * are judged (people speak when they wish); waits until every participant had a fair chance to speak.
 */
export function findImbalance(balance: LimitsReport['balance'], participantNames: readonly string[]): BalanceFinding {
  if (participantNames.length < 2) return null;
  const counts = participantNames.map((name) => ({ name, messages: balance.find((entry) => entry.speaker === name)?.messages ?? 0 }));
  const total = counts.reduce((sum, entry) => sum + entry.messages, 0);
  if (total < participantNames.length * 2) return null;
  const fairShare = total / participantNames.length;
  const quietest = [...counts].sort((left, right) => left.messages - right.messages)[0];
  if (quietest && quietest.messages <= fairShare / 3) return { kind: 'quiet', name: quietest.name, messages: quietest.messages };
  const loudest = [...counts].sort((left, right) => right.messages - left.messages)[0];
  const dominantShare = Math.max(0.6, 1.5 / participantNames.length);
  if (loudest && loudest.messages / total > dominantShare && loudest.messages >= 4) {
    return { kind: 'dominant', name: loudest.name, share: loudest.messages / total };
  }
  return null;
}
