import { PLANNER_RUN_JOBS } from './planner-job-kinds.ts';
import type { Logger } from 'pino';
import type { JobsRepository } from '../../repositories/jobs-repository.ts';
import type { RunStatesRepository, StoredRunState } from '../../repositories/run-states-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import { isDatabaseUnreachable } from '../../core/database-unreachable.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { Session } from '../../core/domain.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import type { PlannerOutcome, PlannerRuns } from './planner-runs.ts';

/** The kind under which the paused Planner run waits for a person's decision. */
export const PLANNER_APPROVAL_RUN = 'planner_approval';
/** Planner jobs whose presence means the plan is still being written or revised. */
const PLANNER = { kind: 'planner', name: 'Planner' } as const;
/** Fresh forced runs after a resumed revision gave no plan, before the old plan is kept with a notice. */
const FRESH_REVISION_ATTEMPTS = 2;

/** What an approval came to; only `approved` means the discussion started. */
export type ApprovalResult = { kind: 'approved' } | { kind: 'busy' } | { kind: 'replanning' } | { kind: 'failed'; reason: string };

/** What a person is told about an approval. */
export function approvalReply(result: ApprovalResult): string {
  switch (result.kind) {
    case 'approved':
      return 'Plan approved — starting the discussion.';
    case 'busy':
      return 'The Planner is still working on the plan (a revision is under way). Approve it once the new plan appears.';
    case 'replanning':
      return 'This plan cannot be approved as it stands: its paused planning run is gone (already used, or lost). The Planner is proposing the plan again — approve it when it appears.';
    case 'failed':
      return `The plan could not be started: ${result.reason}. It is still waiting for approval — try \`!approve\` again, or write what to change.`;
  }
}

/** What approving and revising need. */
export interface PlannerApprovalOptions {
  sessions: SessionsRepository;
  runStates: RunStatesRepository;
  jobs: JobsRepository;
  delivery: DeliveryService;
  clock: Clock;
  logger: Logger;
  runs: PlannerRuns;
  /** Posts the Moderator's opening (or a plain one) and starts the first round. */
  open(session: Session, output: unknown, traceId: string | null): Promise<void>;
  /** Sends the session back to planning with a forced run. */
  replan(session: Session): Promise<ApprovalResult>;
  /** A fresh forced Planner run from the topic, the plan before and every comment. */
  reviseFresh(session: Session): Promise<PlannerOutcome>;
  /** Posts a (revised) plan for approval and stores its paused run. */
  propose(session: Session, outcome: Extract<PlannerOutcome, { kind: 'plan' }>): Promise<JobOutcome>;
}

/**
 * A person's decision on the stored plan: an approval resumes the paused run (the session is active once it
 * returns), a comment resumes it with a rejection that forces a revised plan. The stored run is claimed
 * before it is resumed, and put back whenever the resume did not get anywhere, so the plan stays approvable.
 */
export class PlannerApproval {
  /**
   * Per session, the stored run whose take the database cut short here, and when it was taken: the take may have
   * committed unheard, and the decision tried again must find the run it took rather than none (a fresh plan).
   */
  private readonly cutShort = new Map<string, { stored: StoredRunState; takenAt: Date }>();

  constructor(private readonly options: PlannerApprovalOptions) {}

  /** Approves the stored plan and resumes its run (`jobId`: the job doing this, when one is). */
  async approve(session: Session, jobId?: number): Promise<ApprovalResult> {
    const stored = await this.claim(session, jobId);
    if (stored === 'busy' || stored === 'missing') return stored === 'busy' ? { kind: 'busy' } : this.options.replan(session);
    let resumed: Awaited<ReturnType<PlannerRuns['resume']>>;
    try {
      resumed = await this.options.runs.resume(session, stored.state, { decision: 'approve' });
    } catch (error) {
      this.options.logger.error(
        { session: session.id, err: error instanceof Error ? error.message : String(error) },
        'the stored planner run could not be restored',
      );
      return this.options.replan(session);
    }
    const current = await this.options.sessions.findById(session.id);
    if (current?.status === 'active') {
      await this.options.open(current, resumed.opening, resumed.outcome.traceId ?? null);
      return { kind: 'approved' };
    }
    if (current?.status !== 'awaiting_approval') return { kind: 'failed', reason: `the session is ${current?.status.replace('_', ' ') ?? 'gone'}` };
    await this.putBack(stored);
    return { kind: 'failed', reason: resumed.outcome.kind === 'none' ? resumed.outcome.reason : 'the plan did not start' };
  }

  /** Revises the stored plan with a person's comment; keeps the plan approvable when no revision comes. */
  async revise(session: Session, decision: { author: string; comment: string; jobId: number }): Promise<void> {
    const { author, comment } = decision;
    const stored = await this.claim(session, decision.jobId);
    if (stored === 'busy') return;
    if (stored === 'missing') {
      await this.options.replan(session);
      return;
    }
    let outcome: PlannerOutcome;
    try {
      outcome = (await this.options.runs.resume(session, stored.state, { decision: 'reject', author, comment })).outcome;
    } catch (error) {
      this.options.logger.error(
        { session: session.id, err: error instanceof Error ? error.message : String(error) },
        'the stored planner run could not be restored',
      );
      await this.options.replan(session);
      return;
    }
    // The resumed run gave no plan: keep the old plan approvable, then try fresh forced runs from the comments.
    if (outcome.kind !== 'plan') await this.putBack(stored);
    for (let attempt = 0; outcome.kind !== 'plan' && attempt < FRESH_REVISION_ATTEMPTS; attempt += 1) outcome = await this.options.reviseFresh(session);
    if (outcome.kind === 'plan') {
      await this.options.propose(session, outcome);
      return;
    }
    const reason = outcome.kind === 'none' ? outcome.reason : 'the model answered with questions instead of a plan';
    await this.options.delivery.post(
      session,
      PLANNER,
      `I could not revise the plan this time (${reason}). The plan above still stands — \`!approve\` it, or write what to change again.`,
    );
  }

  /** Takes the waiting run for this decision; `busy` when another decision took it or a revision is under way. */
  private async claim(session: Session, jobId: number | undefined): Promise<StoredRunState | 'busy' | 'missing'> {
    const stored = await this.options.runStates.findWaiting(session.id, PLANNER_APPROVAL_RUN);
    if (!stored) {
      const retaken = await this.retakeCutShort(session);
      if (retaken) return retaken;
      return (await this.revisionUnderway(session, jobId)) ? 'busy' : 'missing';
    }
    const takenAt = this.options.clock.now();
    try {
      const taken = await this.options.runStates.resolve(stored.id, 'resumed', takenAt);
      this.cutShort.delete(session.id);
      return taken ? stored : 'busy';
    } catch (error) {
      if (isDatabaseUnreachable(error)) this.cutShort.set(session.id, { stored, takenAt });
      throw error;
    }
  }

  /** The run this process took for `session` without hearing so, taken again; null when none, or another took it since. */
  private async retakeCutShort(session: Session): Promise<StoredRunState | null> {
    const cut = this.cutShort.get(session.id);
    if (!cut) return null;
    const retaken = await this.options.runStates.retake(cut.stored.id, cut.takenAt, this.options.clock.now());
    this.cutShort.delete(session.id);
    return retaken ? cut.stored : null;
  }

  private async revisionUnderway(session: Session, jobId: number | undefined): Promise<boolean> {
    const jobs = await this.options.jobs.listForSession(session.id);
    return jobs.some((job) => job.id !== jobId && PLANNER_RUN_JOBS.includes(job.kind) && job.status === 'running');
  }

  private async putBack(stored: StoredRunState): Promise<void> {
    await this.options.runStates.save(stored.sessionId, PLANNER_APPROVAL_RUN, stored.state, this.options.clock.now());
  }
}
