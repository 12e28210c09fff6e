import { RunContext, RunState, assistant, user, withTrace, type AgentInputItem, type Runner } from '@openai/agents';
import type { Logger } from 'pino';
import type { AgentDirectory } from '../../agents/agent-directory.ts';
import { usageOf } from '../../agents/models/usage.ts';
import { sessionPlanSchema, type ModerationVerdict } from '../../agents/schemas.ts';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { ClaimedJob, JobsRepository } from '../../repositories/jobs-repository.ts';
import type { RunStatesRepository } from '../../repositories/run-states-repository.ts';
import type { SessionsRepository } from '../../repositories/sessions-repository.ts';
import type { Clock } from '../clock.ts';
import type { Coordinator } from '../coordinator/coordinator.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { Author, ChatMessage, Session } from '../domain.ts';
import { BrainstormError } from '../errors.ts';
import type { JobOutcome } from '../jobs/job-types.ts';
import type { ToolPorts } from '../ports.ts';
import { clampPlan, formatPlan, formatQuestions } from './plan-format.ts';
import type { RosterService } from './roster-service.ts';
import type { SessionLifecycle } from './session-lifecycle.ts';

export const PLANNER_STEP_JOB = 'planner_step';
export const PLANNER_RESUME_JOB = 'planner_resume';
export const PLANNER_TIMEOUT_JOB = 'planner_timeout';
const APPROVAL = 'planner_approval';
/** Planner runs that may end without a plan after the questions were asked, before the session is cancelled. */
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
  runner: Runner;
  lifecycle: SessionLifecycle;
  coordinator: Coordinator;
  toolPorts: (session: Session) => ToolPorts;
  clock: Clock;
  logger: Logger;
  planner: () => { autoStart: boolean; timeoutMinutes: number; maxQuestions: number };
  limits: () => LimitsConfig;
  nudgeWorker: () => void;
}

/**
 * Planning: questions, answers, a plan, and a person's approval through the SDK's human-in-the-loop. The
 * paused run is stored, so `!approve` resumes it even after a restart. Every step is a durable job.
 */
export class PlannerFlow {
  constructor(private readonly options: PlannerFlowOptions) {}

  /** A new session: plan it. */
  async begin(session: Session): Promise<void> {
    await this.enqueue(PLANNER_STEP_JOB, session.id, {});
  }

  /** A person wrote during planning: an answer to the questions, or a comment that revises the plan. */
  async onPersonMessage(session: Session, message: ChatMessage): Promise<void> {
    if (session.status === 'planning') {
      const plannerState = { ...session.plannerState, answers: [...session.plannerState.answers, { author: message.speaker.name, text: message.text }] };
      await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
      await this.enqueue(PLANNER_STEP_JOB, session.id, {});
      return;
    }
    if (session.status === 'awaiting_approval') await this.requestDecision(session, message.speaker.name, 'reject', message.text);
  }

  /** `!approve` / `!start` / the button. */
  async approve(session: Session, author: Author): Promise<void> {
    if (session.status !== 'awaiting_approval') {
      const hint = session.status === 'planning' ? 'There is no plan to approve yet — answer the questions above first.' : `There is no plan waiting for approval (the session is ${session.status.replace('_', ' ')}).`;
      throw new BrainstormError('wrong_state', hint);
    }
    await this.requestDecision(session, author.name, 'approve', '');
  }

  /** Runs a planning step (job handler). */
  async handleStep(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || session.status !== 'planning') return { status: 'done' };
    const agent = this.options.agents.planner(session, this.options.roster.all());
    const result = await withTrace('Planner', () => this.options.runner.run(agent, plannerInput(session, this.options.planner().maxQuestions), { context: this.context(session), maxTurns: 6 }), {
      groupId: session.id,
      metadata: { sessionId: session.id, step: 'plan' },
    });
    await this.recordUsage(session, usageOf(result));
    if (result.interruptions.length > 0) return this.proposePlan(session, result.state.toString(), result.interruptions[0]?.rawItem);
    const questions = (result.finalOutput?.questions ?? []).slice(0, Math.max(1, this.options.planner().maxQuestions));
    if (questions.length === 0 || session.plannerState.questionRounds > 0) {
      // A model that keeps asking instead of planning must not loop on the budget: give up clearly.
      if (session.plannerState.questionRounds >= MAX_PLANNING_ATTEMPTS) {
        await this.options.lifecycle.end(session.id, 'cancelled', `the Planner could not produce a plan after ${MAX_PLANNING_ATTEMPTS} attempts; please rephrase the topic`);
        return { status: 'done' };
      }
      const plannerState = { ...session.plannerState, questionRounds: session.plannerState.questionRounds + 1 };
      await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
      await this.enqueue(PLANNER_STEP_JOB, session.id, {}, true);
      return { status: 'done' };
    }
    const plannerState = { ...session.plannerState, questions: [...session.plannerState.questions, ...questions], questionRounds: session.plannerState.questionRounds + 1 };
    await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
    await this.options.delivery.post(session, PLANNER, formatQuestions(questions));
    await this.scheduleTimeout(session);
    return { status: 'done' };
  }

  /** Resumes the stored run with the person's decision (job handler). */
  async handleResume(job: ClaimedJob): Promise<JobOutcome> {
    const session = await this.options.sessions.findById(String(job.payload.sessionId));
    if (!session || session.status !== 'awaiting_approval') return { status: 'done' };
    const stored = await this.options.runStates.findWaiting(session.id, APPROVAL);
    if (!stored) return { status: 'failed', error: 'no stored planner run to resume' };
    const agent = this.options.agents.planner(session, this.options.roster.all());
    const state = await RunState.fromStringWithContext(agent, stored.state, new RunContext(this.context(session)), { contextStrategy: 'replace' });
    const pending = state.getInterruptions()[0];
    if (!pending) return { status: 'failed', error: 'stored planner run has no pending approval' };
    if (job.payload.decision === 'approve') {
      state.approve(pending);
    } else {
      state.reject(pending, { message: `${String(job.payload.author)} asked for changes: "${String(job.payload.comment)}". Revise the plan accordingly and call start_session again.` });
    }
    if (!(await this.options.runStates.resolve(stored.id, 'resumed', this.options.clock.now()))) return { status: 'done' };
    // A resumed RunState continues its original trace (grouped by session already); no new trace here.
    const result = await this.options.runner.run(agent, state, { maxTurns: 8 });
    await this.recordUsage(session, usageOf(result));
    if (result.interruptions.length > 0) return this.proposePlan(session, result.state.toString(), result.interruptions[0]?.rawItem);
    const active = await this.options.sessions.findById(session.id);
    if (!active || active.status !== 'active') return { status: 'done' };
    await this.open(active, result.finalOutput);
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

  private async proposePlan(session: Session, state: string, rawItem: unknown): Promise<JobOutcome> {
    const now = this.options.clock.now();
    const args = rawItem && typeof rawItem === 'object' && 'arguments' in rawItem ? String(rawItem.arguments) : '{}';
    const parsed = sessionPlanSchema.safeParse(safeJson(args));
    if (!parsed.success) return { status: 'retry', error: `planner proposed an invalid plan: ${parsed.error.issues[0]?.message ?? ''}` };
    const { plan, adjustments } = clampPlan(parsed.data, this.options.limits());
    await this.options.runStates.save(session.id, APPROVAL, state, now);
    const revision = session.plannerState.revisionRequests.length;
    const updated = await this.options.sessions.update(session.id, { status: 'awaiting_approval', plan }, now, ['planning', 'awaiting_approval']);
    if (!updated) return { status: 'done' };
    await this.options.delivery.post(updated, PLANNER, formatPlan(plan, adjustments, revision), { actions: ['approve_plan'] });
    if (this.options.planner().autoStart) {
      await this.requestDecision(updated, 'auto-start', 'approve', '');
    } else {
      await this.scheduleTimeout(updated);
    }
    return { status: 'done' };
  }

  private async open(session: Session, output: unknown): Promise<void> {
    const verdict = output as Partial<ModerationVerdict> | undefined;
    const opening =
      typeof verdict?.message === 'string' && verdict.message.trim() !== ''
        ? verdict.message
        : `Welcome! The plan is approved. Objectives:\n${(session.plan?.objectives ?? []).map((objective) => `• ${objective}`).join('\n')}\nParticipants, let's begin.`;
    const message = await this.options.delivery.post(session, MODERATOR, opening);
    this.options.coordinator.onHumanMessage(session, message);
  }

  private async requestDecision(session: Session, author: string, decision: 'approve' | 'reject', comment: string): Promise<void> {
    if (decision === 'reject') {
      const plannerState = { ...session.plannerState, revisionRequests: [...session.plannerState.revisionRequests, comment] };
      await this.options.sessions.update(session.id, { plannerState }, this.options.clock.now());
    }
    await this.enqueue(PLANNER_RESUME_JOB, session.id, { decision, author, comment });
  }

  private async scheduleTimeout(session: Session): Promise<void> {
    const runAt = new Date(this.options.clock.now().getTime() + this.options.planner().timeoutMinutes * 60_000);
    await this.options.jobs.enqueue({ kind: PLANNER_TIMEOUT_JOB, sessionId: session.id, dedupeKey: session.id, payload: { sessionId: session.id }, runAt }, this.options.clock.now());
  }

  private async enqueue(kind: string, sessionId: string, payload: Record<string, unknown>, forceNew = false): Promise<void> {
    const now = this.options.clock.now();
    await this.options.jobs.enqueue({ kind, sessionId, dedupeKey: forceNew ? `${sessionId}:${now.getTime()}` : sessionId, queue: `planner:${sessionId}`, payload: { sessionId, ...payload }, runAt: now, maxRetries: 4 }, now);
    this.options.nudgeWorker();
  }

  private context(session: Session) {
    return { ports: this.options.toolPorts(session), sessionId: session.id };
  }

  private async recordUsage(session: Session, usage: { inputTokens: number; outputTokens: number; costUsd: number }): Promise<void> {
    await this.options.sessions.addUsage(session.id, { messages: 0, tokens: usage.inputTokens + usage.outputTokens, costUsd: usage.costUsd }, this.options.clock.now());
  }
}

/** The Planner's input: the topic, the questions it asked, and every answer, each attributed. */
export function plannerInput(session: Session, maxQuestions: number): AgentInputItem[] {
  const items: AgentInputItem[] = [user(`Topic: ${session.topic}`)];
  if (session.plannerState.questions.length > 0) items.push(assistant(`Questions:\n${session.plannerState.questions.map((question, index) => `${index + 1}. ${question}`).join('\n')}`));
  for (const answer of session.plannerState.answers) items.push(user(`Answers from ${answer.author}: ${answer.text}`));
  if (session.plannerState.questionRounds > 0 && session.plannerState.answers.length === 0) items.push(user('Please propose the plan now with start_session.'));
  if (maxQuestions === 0 && items.length === 1) items.push(user('No questions, please: propose the plan with start_session.'));
  return items;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return {};
  }
}
