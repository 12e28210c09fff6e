/** The Moderator's turn-taking hints per session, kept until the next round is planned. */
import type { SpeakerHintsPort } from '../../core/service-ports.ts';

/** Names the next round lets in first and names it holds back. */
export interface RoundHints {
  invited: string[];
  held: string[];
}

/**
 * Written by the Moderator's checks and the idea ledger (an invitation, a hold), read once by the coordinator when
 * it plans a session's next round. Shared by construction, so neither writer needs the coordinator.
 */
export class SpeakerHints implements SpeakerHintsPort {
  private readonly invited = new Map<string, Set<string>>();
  private readonly held = new Map<string, Set<string>>();

  invite(sessionId: string, name: string): void {
    add(this.invited, sessionId, name);
  }

  hold(sessionId: string, name: string): void {
    add(this.held, sessionId, name);
  }

  /** The hints for the next round of `sessionId` (kept until a round is planned with them). */
  current(sessionId: string): RoundHints {
    return { invited: [...(this.invited.get(sessionId) ?? [])], held: [...(this.held.get(sessionId) ?? [])] };
  }

  /** Drops a session's hints: a round was planned with them, or the session ended. */
  spend(sessionId: string): void {
    this.invited.delete(sessionId);
    this.held.delete(sessionId);
  }
}

function add(map: Map<string, Set<string>>, sessionId: string, name: string): void {
  const names = map.get(sessionId) ?? new Set<string>();
  names.add(name);
  map.set(sessionId, names);
}
