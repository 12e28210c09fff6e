import type { DocumentationPort } from '../ports.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { Session } from '../domain.ts';
import type { ModerationPort } from './session-hooks.ts';

/**
 * Moderation without a model: no drift checks, and a plain closing message. It serves when the
 * Moderator agent is not wired (unit tests of the session core); production wires the real one.
 */
export class BasicModeration implements ModerationPort {
  constructor(
    private readonly delivery: DeliveryService,
    private readonly documentation: DocumentationPort,
  ) {}

  async afterRound(_session: Session): Promise<void> {}

  async refocus(session: Session): Promise<string> {
    const objectives = (session.plan?.objectives ?? []).map((objective) => `• ${objective}`).join('\n');
    await this.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, `Let's come back to the objectives:\n${objectives}`);
    return 'Asked the discussion to refocus.';
  }

  async wrapUp(session: Session, reason: string): Promise<void> {
    const tldr = await this.documentation.latestTldr(session.id);
    const lines = [
      `**Session ${session.status}** — ${reason}. Thank you all!`,
      `${session.messageCount} messages · ${session.totalTokens.toLocaleString('en-US')} tokens · $${session.totalCostUsd.toFixed(2)}`,
    ];
    if (tldr) lines.push('', tldr);
    await this.delivery.post(session, { kind: 'moderator', name: 'Moderator' }, lines.join('\n'));
  }
}
