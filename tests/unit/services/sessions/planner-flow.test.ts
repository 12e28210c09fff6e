import { Runner, Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentDirectory } from '../../../../src/agents/agent-directory.ts';
import { createModeratorAgent } from '../../../../src/agents/moderator/moderator-agent.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import { BUILT_IN_PRESETS } from '../../../../src/config/presets.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ChatMessage, Session, SessionPlan } from '../../../../src/core/domain.ts';
import { DatabaseUnreachableError, isDatabaseUnreachable } from '../../../../src/core/database-unreachable.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { SessionEvent } from '../../../../src/core/ports.ts';
import type { TurnTaking } from '../../../../src/core/service-ports.ts';
import { RunStatesRepository } from '../../../../src/repositories/run-states-repository.ts';
import type { JobHandler } from '../../../../src/services/jobs/job-types.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import { PLANNER_RESUME_JOB, PLANNER_STEP_JOB, PLANNER_TIMEOUT_JOB, PlannerFlow } from '../../../../src/services/sessions/planner-flow.ts';
import { RosterService } from '../../../../src/services/sessions/roster-service.ts';
import { SessionLifecycle } from '../../../../src/services/sessions/session-lifecycle.ts';
import { PresetService } from '../../../../src/services/sessions/session-presets.ts';
import { createToolPortsFactory } from '../../../../src/services/sessions/tool-ports.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';
import { scriptedPlan } from '../../../support/scripted-plans.ts';
import {
  deliveryOver,
  limitsConfig,
  openRepositories,
  participant,
  quietLogger,
  storeSession,
  stub,
  type TestRepositories,
} from '../../../support/service-doubles.ts';

const ROSTER = ['Claude', 'ChatGPT', 'Grok'].map((name) => participant(name));
const ALICE = { id: 'u-alice', name: 'Alice', isAdmin: false };
const PLANNER_KINDS = [PLANNER_STEP_JOB, PLANNER_RESUME_JOB, PLANNER_TIMEOUT_JOB];
const prompts = new PromptLibrary();

/**
 * A model as literal as the strictest providers: it calls a tool only when `tool_choice` names it, and otherwise
 * answers by its output schema (the questions it was given, or a verdict). With `ignoreToolChoice` it never calls one.
 */
class LiteralModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: { questions?: string[][]; plans?: SessionPlan[]; ignoreToolChoice?: boolean } = {}) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const choice = request.modelSettings.toolChoice;
    const offered = [...request.tools.map((tool) => tool.name), ...request.handoffs.map((handoff) => handoff.toolName)];
    const id = `call_${this.requests.length}`;
    if (!this.script.ignoreToolChoice && typeof choice === 'string' && offered.includes(choice)) {
      const args = choice === 'start_session' ? (this.script.plans?.shift() ?? scriptedPlan()) : {};
      return { usage: new Usage(), output: [functionCall(choice, args, { callId: id })], responseId: id };
    }
    const schema = JSON.stringify(request.outputType);
    const answer = schema.includes('"questions"')
      ? { questions: this.script.questions?.shift() ?? [] }
      : { action: 'continue', drifting: false, objectivesMet: false, message: 'Welcome! Let us begin.', target: '', reason: 'opening', quality: 5 };
    return { usage: new Usage(), output: [assistantMessage(JSON.stringify(answer))], responseId: id };
  }

  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('the Planner does not stream');
  }
}

/** A planner flow built by hand over PGlite: real lifecycle, delivery, agents and tool ports; the coordinator recorded. */
async function plannerFixture(model: LiteralModel, planner: { maxQuestions?: number; timeoutMinutes?: number } = {}) {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  const events = new InMemoryEventBus();
  const published: SessionEvent[] = [];
  events.subscribe((event) => published.push(event));
  const transport = new MemoryTransport();
  const settings = limitsConfig();
  const logger = quietLogger();
  const delivery = deliveryOver(repositories, clock, transport, events);
  const lifecycle = new SessionLifecycle({
    sessions: repositories.sessions,
    jobs: repositories.jobs,
    delivery,
    clock,
    events,
    logger,
    nudgeWorker: () => undefined,
    bounds: () => settings,
  });
  const roster = new RosterService(ROSTER, { disabledParticipants: () => [], setParticipantEnabled: async () => undefined }, () => true);
  const presets = new PresetService(BUILT_IN_PRESETS, () => ROSTER);
  const opened: ChatMessage[] = [];
  const coordinator = stub<TurnTaking>('coordinator', { onHumanMessage: (_session, message) => void opened.push(message) });
  const toolPorts = createToolPortsFactory({
    sessions: repositories.sessions,
    delivery,
    limits: new LimitsService(repositories.messages, () => settings, clock),
    lifecycle,
    documents: { write: async () => undefined, read: async () => null, recall: async () => [] },
    bounds: () => settings,
    presets,
  });
  /** A planner flow as a process builds it at start: a second one over the same database is a restart. */
  const build = () =>
    new PlannerFlow({
      sessions: repositories.sessions,
      runStates: new RunStatesRepository(repositories.handle.db),
      jobs: repositories.jobs,
      delivery,
      agents: new AgentDirectory({
        models: { participant: () => model, role: () => model },
        prompts,
        limits: () => settings,
        maxPlannerQuestions: planner.maxQuestions ?? 0,
        createModerator: (moderatorModel) => createModeratorAgent({ model: moderatorModel, prompts }),
        participantGuardrails: () => [],
        startSessionGuardrails: [],
        plannerTools: [],
      }),
      roster,
      presets,
      runner: new Runner({ tracingDisabled: true }),
      lifecycle,
      coordinator,
      toolPorts,
      clock,
      logger,
      planner: () => ({ autoStart: false, timeoutMinutes: planner.timeoutMinutes ?? 30, maxQuestions: planner.maxQuestions ?? 0 }),
      limits: () => settings,
      nudgeWorker: () => undefined,
    });
  const flow = build();
  const session = await storeSession(repositories.sessions, clock, { status: 'planning' });

  /** Runs the due Planner jobs as the job worker does, until none is due. */
  const runJobs = async (target: PlannerFlow = flow) => {
    const handlers = new Map<string, JobHandler>();
    target.registerJobs({ register: (kind, handler) => handlers.set(kind, handler) });
    for (let round = 0; round < 20; round += 1) {
      const jobs = await repositories.jobs.claimDue('worker-1', clock.now(), 60_000, 10, PLANNER_KINDS);
      if (jobs.length === 0) return;
      for (const job of jobs) {
        const outcome = await handlers.get(job.kind)!(job, new AbortController().signal);
        if (outcome.status === 'postpone') await repositories.jobs.postpone(job, new Date(clock.now().getTime() + outcome.afterMs), clock.now());
        else await repositories.jobs.complete(job, clock.now());
      }
    }
  };
  const person = async (text: string) => {
    const current = (await repositories.sessions.findById(session.id))!;
    const message = await delivery.post(current, { kind: 'human', name: 'Alice', id: ALICE.id }, text, { countsAsMessage: true });
    await flow.onPersonMessage(current, message);
  };
  const current = async (): Promise<Session> => (await repositories.sessions.findById(session.id))!;
  const room = () => transport.messages;
  const posted = async (speaker: string) => (await repositories.messages.listForSession(session.id)).filter((message) => message.speaker.name === speaker);
  return { clock, repositories, flow, build, session, runJobs, person, current, room, posted, published, opened };
}

let open: TestRepositories | null = null;
afterEach(async () => {
  await open?.handle.close();
  open = null;
});

describe('PlannerFlow', () => {
  it('asks its questions, reads the first answer, and proposes the plan for approval through the lifecycle', async () => {
    const model = new LiteralModel({ questions: [['Who will run the rollouts?', 'Which service is riskiest?']] });
    const fixture = await plannerFixture(model, { maxQuestions: 2 });
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();

    const [questions] = await fixture.posted('Planner');
    expect(questions?.text).toContain('Who will run the rollouts?');
    expect((await fixture.current()).status).toBe('planning');

    await fixture.person('The platform team; payments is the riskiest.');
    await fixture.runJobs();
    const session = await fixture.current();
    expect(session.status).toBe('awaiting_approval');
    expect(session.plan?.expandedTopic).toBe(scriptedPlan().expandedTopic);
    // The plan run read the answer, attributed to its author.
    expect(JSON.stringify(model.requests.at(-1)?.input)).toContain('Answers from Alice: The platform team; payments is the riskiest.');
    expect(fixture.published.some((event) => event.type === 'session' && event.session.status === 'awaiting_approval')).toBe(true);
    const plan = (await fixture.posted('Planner')).at(-1);
    expect(plan?.text).toContain('Pick a flag strategy');
  });

  it('a model that never volunteers a tool call still gets to a plan: the plan is forced once asking led nowhere', async () => {
    const model = new LiteralModel();
    const fixture = await plannerFixture(model, { maxQuestions: 2 });
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();
    expect((await fixture.current()).status).toBe('awaiting_approval');
    expect(model.requests.map((request) => request.modelSettings.toolChoice)).toEqual([undefined, 'start_session']);
  });

  it('approval resumes the stored run in a new process: the session starts and the Moderator opens it', async () => {
    const fixture = await plannerFixture(new LiteralModel());
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();

    const restarted = fixture.build();
    const reply = await restarted.approve(await fixture.current(), ALICE);
    expect(reply).toMatch(/approved/i);
    const session = await fixture.current();
    expect(session.status).toBe('active');
    const [opening] = await fixture.posted('Moderator');
    expect(opening?.text).toBe('Welcome! Let us begin.');
    expect(fixture.opened.map((message) => message.id)).toEqual([opening?.id]);
  });

  it('a comment on the plan revises it (the comment reaches the model) and the revision waits for approval again', async () => {
    const revised = { ...scriptedPlan(), objectives: ['Pick a flag strategy', 'Plan the payments rollout'] };
    const model = new LiteralModel({ plans: [scriptedPlan(), revised] });
    const fixture = await plannerFixture(model);
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();

    // The SDK warns on the console when a paused run's output is read: the revision pauses again, for approval.
    const warnings = vi.spyOn(console, 'warn');
    try {
      await fixture.person('Focus on the payments service.');
      await fixture.runJobs();
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
    }
    const session = await fixture.current();
    expect(session.status).toBe('awaiting_approval');
    expect(session.plan?.objectives).toEqual(revised.objectives);
    expect(JSON.stringify(model.requests.at(-1)?.input)).toContain('Focus on the payments service.');
    expect((await fixture.posted('Planner')).at(-1)?.text).toContain('Plan the payments rollout');
  });

  it('a model that ignores even a forced tool never leaves the session in planning: it is cancelled with the reason', async () => {
    const fixture = await plannerFixture(new LiteralModel({ ignoreToolChoice: true }));
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();
    const session = await fixture.current();
    expect(session.status).toBe('cancelled');
    expect(session.endReason).toMatch(/could not produce a plan after 3 attempts/);
  });

  it('the planning timeout counts from the last activity: a late answer moves it, silence after that cancels', async () => {
    const fixture = await plannerFixture(new LiteralModel({ questions: [['Who runs the rollouts?']] }), { maxQuestions: 1, timeoutMinutes: 10 });
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();
    await fixture.clock.advance(8 * 60_000);
    await fixture.person('The platform team.');
    await fixture.runJobs();
    expect((await fixture.current()).status).toBe('awaiting_approval');
    // Ten minutes after the start, but only three after the plan: the timeout waits.
    await fixture.clock.advance(3 * 60_000);
    await fixture.runJobs();
    expect((await fixture.current()).status).toBe('awaiting_approval');
    await fixture.clock.advance(8 * 60_000);
    await fixture.runJobs();
    const session = await fixture.current();
    expect(session.status).toBe('cancelled');
    expect(session.endReason).toBe('no answer within 10 minutes');
  });

  it('approving while the Planner is still at work says so and changes nothing', async () => {
    const fixture = await plannerFixture(new LiteralModel());
    open = fixture.repositories;
    const attempt = fixture.flow.approve(fixture.session, ALICE);
    await expect(attempt).rejects.toBeInstanceOf(BrainstormError);
    await expect(attempt).rejects.toMatchObject({ code: 'wrong_state' });
    expect((await fixture.current()).status).toBe('planning');
  });

  it('an approval whose take of the stored run committed as the connection dropped starts the plan when tried again, not a fresh plan', async () => {
    const fixture = await plannerFixture(new LiteralModel());
    open = fixture.repositories;
    await fixture.flow.begin(fixture.session);
    await fixture.runJobs();
    const resolve = RunStatesRepository.prototype.resolve;
    const lost = vi.spyOn(RunStatesRepository.prototype, 'resolve').mockImplementationOnce(async function (this: RunStatesRepository, ...args) {
      await resolve.apply(this, args);
      throw new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });
    });
    await expect(fixture.flow.approve(await fixture.current(), ALICE)).rejects.toSatisfy(isDatabaseUnreachable);
    lost.mockRestore();
    expect((await fixture.current()).status).toBe('awaiting_approval');
    expect(await fixture.flow.approve(await fixture.current(), ALICE)).toMatch(/Plan approved/);
    expect((await fixture.current()).status).toBe('active');
    expect((await fixture.posted('Moderator')).map((message) => message.text)).toEqual(['Welcome! Let us begin.']);
  });
});
