import { renderTldrMarkdown } from '../../agents/tldr/tldr-text.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { Session } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { RecalledSession, ToolPorts } from '../../core/ports.ts';
import { planAsApproved } from './plan-decisions.ts';
import { clampPlan } from './plan-format.ts';
import type { SessionLifecycle } from './session-lifecycle.ts';
import type { PresetService } from './session-presets.ts';

/** Where documents are written and read (the documentation module, or a plain store). */
export interface DocumentStorePort {
  write(sessionId: string, kind: 'record' | 'tldr', markdown: string): Promise<void>;
  read(sessionId: string, kind: 'record' | 'tldr'): Promise<string | null>;
  recall(query: string, limit: number, excludeSessionId: string): Promise<RecalledSession[]>;
}

/**
 * Builds the ports a session's tools use. Plain closures only: a paused RunState serialises its context,
 * so nothing here may hold a reference that JSON cannot (or must not) carry.
 */
export function createToolPortsFactory(dependencies: {
  sessions: SessionsRepository;
  delivery: DeliveryService;
  limits: LimitsService;
  lifecycle: SessionLifecycle;
  documents: DocumentStorePort;
  bounds: () => LimitsConfig;
  /** Shapes the approved plan by its preset, as the plan shown for approval was. */
  presets?: PresetService;
}): (session: Session) => ToolPorts {
  const load = async (sessionId: string) => {
    const session = await dependencies.sessions.findById(sessionId);
    if (!session) throw new BrainstormError('not_found', 'That session no longer exists.');
    return session;
  };
  return (session) => ({
    sessionId: session.id,
    postToRoom: async (speaker, content, extras) => {
      await dependencies.delivery.post(await load(session.id), speaker, content, extras);
    },
    checkLimits: async () => dependencies.limits.report(await load(session.id)),
    startSession: async (plan) => {
      // The approved call carries the plan as the model wrote it: the preset, people's words and the shown limits decide.
      const current = await load(session.id);
      const decided = clampPlan(planAsApproved(current, plan, dependencies.presets, dependencies.bounds()), dependencies.bounds()).plan;
      const presets = dependencies.presets;
      if (presets) {
        // The roster follows the preset too (a preset chosen just before the approval included).
        const disabledParticipants = presets.leftOut(presets.applied(current, decided)?.preset ?? null);
        await dependencies.sessions.update(session.id, { disabledParticipants }, current.updatedAt);
      }
      await dependencies.lifecycle.activate(session.id, decided);
    },
    endSession: (reason) => dependencies.lifecycle.end(session.id, 'completed', reason),
    writeDocument: (kind, markdown) => dependencies.documents.write(session.id, kind, markdown),
    writeSummary: (summary) => dependencies.documents.write(session.id, 'tldr', renderTldrMarkdown(summary, `TLDR: ${session.topic}`)),
    readDocument: (kind) => dependencies.documents.read(session.id, kind),
    recallSessions: (query, limit) => dependencies.documents.recall(query, limit, session.id),
  });
}
