import type { JobRegistry } from '../jobs/job-types.ts';
import type { Runner } from '@openai/agents';
import type { Logger } from 'pino';
import type { AgentDirectory } from '../../agents/agent-directory.ts';
import type { PlannerMode } from '../../agents/planner/planner-agent.ts';
import type { ModerationVerdict } from '../../core/schemas.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';
import type { RunStatesRepository } from '../../repositories/run-states-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../../core/clock.ts';
import type { TurnTaking } from '../../core/service-ports.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { Author, ChatMessage, Session } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import type { ToolPorts } from '../../core/ports.ts';
import { clampPlan, conversationLead, formatPlan, formatQuestions } from './plan-format.ts';
import { planAsDecided } from './plan-decisions.ts';
import { raisedLimitsNote } from './viable-limits.ts';
import { approvalReply, PLANNER_APPROVAL_RUN, PlannerApproval, type ApprovalResult } from './planner-approval.ts';
import { PlannerRuns, plannerInput, type PlannerOutcome } from './planner-runs.ts';
import type { RosterService } from './roster-service.ts';
import type { PresetService } from './session-presets.ts';
import type { SessionLifecycle } from './session-lifecycle.ts';

import { PLANNER_RESUME_JOB, PLANNER_STEP_JOB, PLANNER_TIMEOUT_JOB } from './planner-job-kinds.ts';

export { PLANNER_RESUME_JOB, PLANNER_STEP_JOB, PLANNER_TIMEOUT_JOB };
/** Forced Planner runs that may end without a plan before the session is cancelled with a notice. */
const MAX_PLANNING_ATTEMPTS = 3;
const PLANNER = { kind: 'planner', name: 'Planner' } as const;
const MODERATOR = { kind: 'moderator', name: 'Moderator' } as const;

/** What the planner flow needs. */
export interface PlannerFlowOptions {
  sessions: SessionsRepository;
  runStates: RunStatesRepository;
  jobs: JobsRepository;
  delivery: DeliveryService;
  agents: AgentDirectory;
  roster: RosterService;
  presets: PresetService;
  runner: Runner;
  lifecycle: SessionLifecycle;
  coordinator: TurnTaking;
  toolPorts: (session: Session) => ToolPorts;
  clock: Clock;
  logger: Logger;
  planner: () => { autoStart: boolean; timeoutMinutes: number; maxQuestions: number };
  limits: () => LimitsConfig;
  nudgeWorker: () => void;
}

/**
 * Planning: questions, answers, a plan, and a person's approval through the SDK's human-in-the-loop. The
 * paused run is stored, so `!approve` resumes it even after a restart. Every decision that must happen is
 * forced (the plan once questions are spent, the revision after a comment, the handoff after approval),
 * and every way a run can fail ends in a plan, a re-plan, or a notice in the room: never in a dead end.
 */
export class PlannerFlow {
  private readonly runs: PlannerRuns;
  private readonly approval: PlannerApproval;

  constructor(private readonly options: PlannerFlowOptions) {
    this.runs = new PlannerRuns(options);
    this.approval = new PlannerApproval({
      ...options,
      runs: this.runs,
      open: (session, output, traceId) => this.open(session, output, traceId),
      replan: (session) => this.replan(session),
      propose: (session, outcome) => this.proposePlan(session, outcome),
      reviseFresh: async (session) => {
        const current = (await this.options.sessions.findById(session.id)) ?? session;
        return this.runs.fresh(current, 'plan', this.input(current, 'plan', true));
      },
    });
  }

  /** A new session: plan it. The planning timeout runs from the start, so no session waits in planning for ever. */
  async begin(session: Session): Promise<void> {
    await this.enqueue(PLANNER_STEP_JOB, session.id, {});
    await this.scheduleTimeout(session);
  }

  /** A person wrote during planning: an answer to the questions, or a comment that revises the plan. */
  async onPersonMessage(session: Session, message: ChatMessage): Promise<void> {
    if (session.status === 'planning') {
      const plannerState = { ...session.plannerState, answers: [...session.plannerState.answers, { author: message.speaker.name, text: message.text }] };
      await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
      await this.enqueue(PLANNER_STEP_JOB, session.id, {});
      return;
    }
    if (session.status !== 'awaiting_approval') return;
    const plannerState = { ...session.plannerState, revisionRequests: [...session.plannerState.revisionRequests, message.text] };
    await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
    // One revision per comment, in order: a second comment revises the plan the first one produced.
    await this.enqueue(
      PLANNER_RESUME_JOB,
      session.id,
      { decision: 'reject', author: message.speaker.name, comment: message.text },
      `${session.id}:comment:${message.id}`,
    );
  }

  /**
   * `!approve` / `!start` / the button: resumes the stored run now and answers with what actually happened
   * (approved only once the session is active; otherwise what is wrong and what happens instead).
   */
  async approve(session: Session, author: Author): Promise<string> {
    if (session.status !== 'awaiting_approval') {
      const hint =
        session.status === 'planning'
          ? 'There is no plan to approve yet — the Planner is still working on it (answer its questions above, if it asked any).'
          : `There is no plan waiting for approval (the session is ${session.status.replace('_', ' ')}).`;
      throw new BrainstormError('wrong_state', hint);
    }
    this.options.logger.info({ session: session.id, by: author.id }, 'plan approval');
    const result = await this.approval.approve(session);
    if (result.kind === 'failed') throw new BrainstormError('service_unavailable', approvalReply(result));
    return approvalReply(result);
  }

  /** The Planner's jobs are its own: it registers their handlers. */
  registerJobs(worker: JobRegistry): void {
    worker.register(PLANNER_STEP_JOB, (job) => this.handleStep(job));
    worker.register(PLANNER_RESUME_JOB, (job) => this.handleResume(job));
    worker.register(PLANNER_TIMEOUT_JOB, (job) => this.handleTimeout(job));
  }

  /** Runs a planning step (job handler): questions, or the plan, forced a bounded number of times. */
  async handleStep(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || session.status !== 'planning') return { status: 'done' };
    const maxQuestions = this.options.planner().maxQuestions;
    const replan = job.payload.replan === true;
    const failures = Number(job.payload.failures ?? 0);
    const asking = maxQuestions > 0 && session.plannerState.questionRounds === 0 && job.payload.forced !== true && !replan;
    const mode: PlannerMode = asking ? 'ask' : 'plan';
    const outcome = await this.runs.fresh(session, mode, this.input(session, mode, replan));
    if (outcome.kind === 'plan') return this.proposePlan(session, outcome);
    if (outcome.kind === 'questions' && mode === 'ask') return this.askQuestions(session, outcome.questions.slice(0, maxQuestions), outcome.traceId ?? null);
    // Asking led nowhere, or a forced run gave no plan: force the plan next, a bounded number of times.
    const reason = outcome.kind === 'questions' ? 'the model answered with questions instead of a plan' : outcome.reason;
    const failed = mode === 'plan' ? failures + 1 : failures;
    if (failed >= MAX_PLANNING_ATTEMPTS) {
      await this.options.lifecycle.end(
        session.id,
        'cancelled',
        `the Planner could not produce a plan after ${MAX_PLANNING_ATTEMPTS} attempts (${reason}); try rephrasing the topic`,
      );
      return { status: 'done' };
    }
    this.options.logger.warn({ session: session.id, mode, failures: failed, reason }, 'planner run gave no plan; forcing the plan');
    await this.enqueue(
      PLANNER_STEP_JOB,
      session.id,
      { forced: true, failures: failed, replan },
      `${session.id}:forced:${failed}:${this.options.clock.now().getTime()}`,
    );
    return { status: 'done' };
  }

  /** Resumes the stored run with a comment (a revision) or the auto-start approval (job handler). */
  async handleResume(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || session.status !== 'awaiting_approval') return { status: 'done' };
    if (job.payload.decision === 'approve') {
      const result = await this.approval.approve(session, job.id);
      if (result.kind === 'failed') await this.options.delivery.post(session, PLANNER, approvalReply(result));
      return { status: 'done' };
    }
    await this.approval.revise(session, { author: String(job.payload.author), comment: String(job.payload.comment), jobId: job.id });
    return { status: 'done' };
  }

  /** Cancels a session nobody answered within SESSION_PLANNER_TIMEOUT_MINUTES (job handler). */
  async handleTimeout(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || (session.status !== 'planning' && session.status !== 'awaiting_approval')) return { status: 'done' };
    const minutes = this.options.planner().timeoutMinutes;
    const deadline = session.updatedAt.getTime() + minutes * 60_000;
    const now = this.options.clock.now().getTime();
    if (now < deadline) return { status: 'postpone', afterMs: deadline - now };
    await this.options.lifecycle.end(session.id, 'cancelled', `no answer within ${minutes} minutes`);
    return { status: 'done' };
  }

  /**
   * `!preset <name>` (or `preset:` at the start): the person's choice wins over the Planner's pick. While a plan
   * waits, it is revised to follow the preset; while planning, the plan to come follows it.
   */
  async choosePreset(session: Session, name: string, author: Author): Promise<string> {
    const preset = this.options.presets.require(name);
    const comment = `Follow the preset "${preset.name}" (${preset.title}): ${preset.flow}`;
    const waiting = session.status === 'awaiting_approval';
    const revisionRequests = waiting ? [...session.plannerState.revisionRequests, comment] : session.plannerState.revisionRequests;
    const plannerState = { ...session.plannerState, preset: { name: preset.name, by: author.name }, revisionRequests };
    await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
    if (!waiting) return `Preset **${preset.title}** (\`${preset.name}\`) chosen: the plan will follow it.`;
    await this.enqueue(
      PLANNER_RESUME_JOB,
      session.id,
      { decision: 'reject', author: author.name, comment },
      `${session.id}:preset:${this.options.clock.now().getTime()}`,
    );
    return `Preset **${preset.title}** (\`${preset.name}\`) chosen — revising the plan to follow it.`;
  }

  private input(session: Session, mode: PlannerMode, replan: boolean) {
    return plannerInput(session, { maxQuestions: this.options.planner().maxQuestions, mode, replan, presets: this.options.presets.plannerNote(session) });
  }

  private async askQuestions(session: Session, questions: string[], traceId: string | null): Promise<JobOutcome> {
    const plannerState = {
      ...session.plannerState,
      questions: [...session.plannerState.questions, ...questions],
      questionRounds: session.plannerState.questionRounds + 1,
    };
    await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
    const lead = session.plannerState.questionRounds === 0 ? conversationLead(session, `we are to brainstorm “${session.topic}”.`) : null;
    await this.options.delivery.post(session, PLANNER, formatQuestions(questions, lead), { traceId });
    await this.scheduleTimeout(session);
    return { status: 'done' };
  }

  private async proposePlan(session: Session, outcome: Extract<PlannerOutcome, { kind: 'plan' }>): Promise<JobOutcome> {
    const now = this.options.clock.now();
    const current = (await this.options.sessions.findById(session.id)) ?? session;
    // The preset (a person's choice, else the Planner's pick) shapes the plan before the admin bounds clamp it.
    const decided = planAsDecided(current, outcome.plan, this.options.presets, this.options.limits());
    const { plan, adjustments } = clampPlan(decided.plan, this.options.limits());
    await this.options.runStates.save(session.id, PLANNER_APPROVAL_RUN, outcome.state, now);
    const disabledParticipants = this.options.presets.leftOut(this.options.presets.applied(current, plan)?.preset ?? null);
    // Every status change goes through the lifecycle, which publishes it (console, Notion row).
    const updated = await this.options.lifecycle.awaitApproval(session.id, { plan, disabledParticipants });
    if (!updated) return { status: 'done' };
    const revision = current.plannerState.revisionRequests.length;
    const first = revision === 0 && current.plannerState.questions.length === 0;
    const text = formatPlan(plan, adjustments, revision, {
      lead: first ? conversationLead(current, plan.expandedTopic) : null,
      preset: this.options.presets.planLines(current, plan),
      raised: raisedLimitsNote(decided.raised),
    });
    await this.options.delivery.post(updated, PLANNER, text, {
      actions: ['approve_plan'],
      traceId: outcome.traceId ?? null,
    });
    if (this.options.planner().autoStart) {
      await this.enqueue(PLANNER_RESUME_JOB, session.id, { decision: 'approve', author: 'auto-start', comment: '' });
    } else {
      await this.scheduleTimeout(updated);
    }
    return { status: 'done' };
  }

  /** Nothing to resume: back to planning, and a forced run proposes the plan again. */
  private async replan(session: Session): Promise<ApprovalResult> {
    const now = this.options.clock.now();
    const updated = await this.options.lifecycle.returnToPlanning(session.id);
    if (!updated) return { kind: 'busy' };
    await this.enqueue(PLANNER_STEP_JOB, session.id, { forced: true, replan: true, failures: 0 }, `${session.id}:replan:${now.getTime()}`);
    return { kind: 'replanning' };
  }

  private async open(session: Session, output: unknown, traceId: string | null): Promise<void> {
    const verdict = output as Partial<ModerationVerdict> | undefined;
    const opening =
      typeof verdict?.message === 'string' && verdict.message.trim() !== ''
        ? verdict.message
        : `Welcome! The plan is approved. Objectives:\n${(session.plan?.objectives ?? []).map((objective) => `• ${objective}`).join('\n')}\nParticipants, let's begin.`;
    const message = await this.options.delivery.post(session, MODERATOR, opening, { traceId });
    this.options.coordinator.onHumanMessage(session, message);
  }

  private async scheduleTimeout(session: Session): Promise<void> {
    const runAt = new Date(this.options.clock.now().getTime() + this.options.planner().timeoutMinutes * 60_000);
    await this.options.jobs.enqueue(
      { kind: PLANNER_TIMEOUT_JOB, sessionId: session.id, dedupeKey: session.id, payload: { sessionId: session.id }, runAt },
      this.options.clock.now(),
    );
  }

  private async enqueue(kind: string, sessionId: string, payload: Record<string, unknown>, dedupeKey = sessionId): Promise<void> {
    const now = this.options.clock.now();
    await this.options.jobs.enqueue(
      { kind, sessionId, dedupeKey, queue: `planner:${sessionId}`, payload: { sessionId, ...payload }, runAt: now, maxRetries: 4 },
      now,
    );
    this.options.nudgeWorker();
  }
}
