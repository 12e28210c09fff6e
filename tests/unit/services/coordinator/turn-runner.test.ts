import { Runner, Usage, type Model, type ModelResponse, type StreamEvent } from '@openai/agents';
import { assistantMessage, modelError, modelStreamResponder, ScriptedModel, type ScriptedModelInput } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentDirectory } from '../../../../src/agents/agent-directory.ts';
import { participantOutputGuardrails } from '../../../../src/agents/guardrails/participant-output-guardrails.ts';
import { PromptLibrary } from '../../../../src/agents/prompts/prompt-library.ts';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ChatMessage, Session } from '../../../../src/core/domain.ts';
import type { DocumentationPort, ToolPorts } from '../../../../src/core/ports.ts';
import { ContextManager, type RecentHistory } from '../../../../src/services/context/context-manager.ts';
import { TokenCounter } from '../../../../src/services/context/token-counter.ts';
import { TurnControl } from '../../../../src/services/coordinator/turn-control.ts';
import { INTERRUPTED_MARK } from '../../../../src/services/coordinator/turn-outcome.ts';
import { TurnRunner } from '../../../../src/services/coordinator/turn-runner.ts';
import { LimitsService } from '../../../../src/services/limits/limits-service.ts';
import { chatMessage } from '../../../support/chat-messages.ts';
import { MemoryTransport } from '../../../support/memory-transport.ts';
import {
  deliveryOver,
  limitsConfig,
  openRepositories,
  participant,
  quietLogger,
  storeSession,
  stub,
  until,
  type TestRepositories,
} from '../../../support/service-doubles.ts';

const ROSTER = ['Claude', 'ChatGPT', 'Grok'].map((name) => participant(name));
const CLAUDE = ROSTER[0]!;
const prompts = new PromptLibrary();

/** A room whose previews can be taken down, as Discord's can. */
class RemovingTransport extends MemoryTransport {
  readonly removed: string[] = [];
  async removePreview(_roomId: string, externalId: string): Promise<void> {
    this.removed.push(externalId);
  }
}

/** A turn runner built by hand: real agents, context, limits and delivery over PGlite; each participant's model scripted. */
async function turnFixture(models: Record<string, Model>, transport = new MemoryTransport()) {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  const settings = limitsConfig();
  const delivery = deliveryOver(repositories, clock, transport);
  const documentation = stub<DocumentationPort>('documentation', { latestRecord: async () => null, requestRecord: async () => undefined });
  const tokens = new TokenCounter();
  const agents = new AgentDirectory({
    models: { participant: (id) => models[id] ?? new ScriptedModel([]), role: () => new ScriptedModel([]) },
    prompts,
    limits: () => settings,
    maxPlannerQuestions: 0,
    createModerator: () => {
      throw new Error('a participant turn builds no Moderator');
    },
    participantGuardrails: (names, self) => participantOutputGuardrails(names, self),
    startSessionGuardrails: [],
    plannerTools: [],
  });
  const limits = new LimitsService(repositories.messages, () => settings, clock);
  let typing = 0;
  const runner = new TurnRunner({
    runner: new Runner({ tracingDisabled: true }),
    agents,
    delivery,
    context: new ContextManager({
      messages: repositories.messages,
      documentation,
      tokens,
      contextWindow: async () => 200_000,
      limits: () => settings,
      historyBudgetTokens: 50_000,
    }),
    tokens,
    limits,
    toolPorts: () => stub<ToolPorts>('tool ports'),
    logger: quietLogger(),
    typing: async () => {
      typing += 1;
    },
    spend: (sessionId, usage) => repositories.sessions.addModelUsage(sessionId, usage, clock.now()),
  });
  const session = await storeSession(repositories.sessions, clock);
  const question = await delivery.post(session, { kind: 'human', name: 'Alice', id: 'u-alice' }, 'Which flags should we build first?', {
    countsAsMessage: true,
  });
  const run = (control = new TurnControl(new AbortController().signal, clock, null), answering: ChatMessage[] = [question], history?: RecentHistory) =>
    runner.run({ session, participant: CLAUDE, roster: ROSTER, answering, control, ...(history ? { history } : {}) });
  const stored = () => repositories.messages.listForSession(session.id);
  return {
    clock,
    repositories,
    transport,
    session,
    question,
    run,
    stored,
    typing: () => typing,
    current: (): Promise<Session | null> => repositories.sessions.findById(session.id),
  };
}

function text(value: string): ScriptedModelInput {
  return [assistantMessage(value)];
}

/** A whole response whose provider reported its tokens, as a real endpoint's does. */
function billed(value: string, inputTokens: number, outputTokens: number): ModelResponse {
  return { output: [assistantMessage(value)], usage: new Usage({ requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }) };
}

let open: TestRepositories | null = null;
afterEach(async () => {
  await open?.handle.close();
  open = null;
});

describe('TurnRunner', () => {
  it('answers: the model reads the person by name, and its answer is stored (replying to them, counted) before any delivery', async () => {
    const model = new ScriptedModel([text('Start with the payment path: it carries the most risk.')]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    const outcome = await fixture.run();
    expect(outcome.status).toBe('answered');
    if (outcome.status !== 'answered') return;
    expect(outcome.message).toMatchObject({
      text: 'Start with the payment path: it carries the most risk.',
      model: CLAUDE.model,
      replyTo: [fixture.question.id],
    });
    expect(outcome.message.deliveryStatus).toBe('pending');
    expect(JSON.stringify(model.calls[0]?.request.input)).toContain('[Alice (person)]: Which flags should we build first?');
    expect((await fixture.current())?.messageCount).toBe(2);
    expect(fixture.typing()).toBe(1);
  });

  it("takes the participant's own label off its answer, as models copy the transcript's '[Name]: ' lines, and never shows it", async () => {
    const fixture = await turnFixture({
      claude: new ScriptedModel([modelStreamResponder(() => streamOf(['[Cla', 'ude]: Start with ', 'the payment path.']))]),
    });
    open = fixture.repositories;
    const outcome = await fixture.run();
    expect(outcome.status === 'answered' && outcome.message.text).toBe('Start with the payment path.');
    expect(fixture.transport.messages.map((message) => message.content).join('\n')).not.toContain('[Cla');
  });

  it("shows and stores a local reasoning model's answer without its thinking", async () => {
    const fixture = await turnFixture({
      claude: new ScriptedModel([modelStreamResponder(() => streamOf(['<think>\nThey want', ' a rollout plan.\n</think>\n\n', 'Start with one team.']))]),
    });
    open = fixture.repositories;
    const outcome = await fixture.run();
    expect(outcome.status === 'answered' && outcome.message.text).toBe('Start with one team.');
    expect(fixture.transport.messages.map((message) => message.content).join('\n')).not.toContain('rollout plan');
  });

  it('an answer that is its own label alone is tried again, as an empty one is', async () => {
    const model = new ScriptedModel([text('[Claude]:'), text('Start with the payment path.')]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    const outcome = await fixture.run();
    expect(model.calls).toHaveLength(2);
    expect(outcome.status === 'answered' && outcome.message.text).toBe('Start with the payment path.');
  });

  it('gives a tripped output guardrail one more try, then withholds the answer with the reason and stores no answer', async () => {
    const model = new ScriptedModel([text('Ping @everyone about this.'), text('Still pinging @everyone.')]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    const outcome = await fixture.run();

    expect(outcome.status).toBe('withheld');
    expect(model.calls).toHaveLength(2);
    const messages = await fixture.stored();
    expect(messages.filter((message) => message.speaker.kind === 'participant')).toEqual([]);
    expect(messages.at(-1)?.speaker.name).toBe('Brainstorm');
    expect(messages.at(-1)?.text).toMatch(/^Claude's answer was withheld: /);
    expect(messages.at(-1)?.text).not.toContain('@everyone');
  });

  it('keeps the second try when it passes, and the answer carries what both tries cost', async () => {
    const fixture = await turnFixture({
      claude: new ScriptedModel([billed('Ping @everyone.', 900, 40), billed('A kill switch per risky path.', 950, 60)]),
    });
    open = fixture.repositories;
    const before = (await fixture.current())?.totalTokens ?? 0;
    const outcome = await fixture.run();
    expect(outcome.status === 'answered' && outcome.message.text).toBe('A kill switch per risky path.');
    if (outcome.status !== 'answered') return;
    // The refused first try was paid for: the session's counter, which its token limit reads, includes it.
    expect(outcome.message).toMatchObject({ inputTokens: 1850, outputTokens: 100 });
    expect((await fixture.current())?.totalTokens).toBe(before + 1950);
  });

  it('an answer that repeats its own earlier one is tried again, told so, and the new answer is kept', async () => {
    const said = 'Start with the payment path: it carries the most risk and had the most incidents this year.';
    const model = new ScriptedModel([
      text('start with the payment path -- it carries the most risk, and had the most incidents this year!'),
      text('Add a kill switch per risky path, owned by whoever is on call.'),
    ]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    const earlier = chatMessage({ id: 90, number: 7, speaker: { kind: 'participant', name: 'Claude' }, text: said });
    const outcome = await fixture.run(undefined, [fixture.question], { messages: [earlier, fixture.question], complete: true });

    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.calls[1]?.request.input)).toContain('[Room]: You said this already in #7.');
    expect(JSON.stringify(model.calls[0]?.request.input)).not.toContain('You said this already');
    expect(outcome.status === 'answered' && outcome.message.text).toBe('Add a kill switch per risky path, owned by whoever is on call.');
  });

  it('an answer that repeats itself again is withheld: its preview leaves the room, its cost counts, and the round tells the room', async () => {
    const said = 'Start with the payment path: it carries the most risk and had the most incidents this year.';
    const earlier = chatMessage({ id: 90, number: 7, speaker: { kind: 'participant', name: 'Claude' }, text: said });
    const stuck = new ScriptedModel([billed(said, 900, 40), billed(said, 950, 60)]);
    const room = new RemovingTransport();
    const fixture = await turnFixture({ claude: stuck }, room);
    open = fixture.repositories;
    const before = await fixture.current();
    const storedBefore = (await fixture.stored()).length;
    const outcome = await fixture.run(undefined, [fixture.question], { messages: [earlier, fixture.question], complete: true });
    expect(outcome).toEqual({ status: 'withheld', reason: 'it repeated its own answer #7', repeatOf: 7 });
    // No notice of its own (the coordinator posts one for the round), no answer, and its preview taken down.
    expect(await fixture.stored()).toHaveLength(storedBefore);
    const previews = room.messages.filter((message) => message.preview).map((message) => message.externalId);
    expect(previews).toHaveLength(1);
    expect(room.removed).toEqual(previews);
    const after = await fixture.current();
    expect((after?.totalTokens ?? 0) - (before?.totalTokens ?? 0)).toBe(1950);
    expect(after?.messageCount).toBe(before?.messageCount);
    await fixture.repositories.handle.close();

    const building = new ScriptedModel([text(`${said} And measure it: deploy failures per week, before and after the first two weeks.`)]);
    const next = await turnFixture({ claude: building });
    open = next.repositories;
    const kept = await next.run(undefined, [next.question], { messages: [earlier, next.question], complete: true });
    expect(kept.status).toBe('answered');
    expect(building.calls).toHaveLength(1);
  });

  it('never sends a conversation that carries a secret: the turn is withheld and the model is not called', async () => {
    const model = new ScriptedModel([text('unused')]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    // Built at run time so the repository holds no credential-shaped literal.
    const key = ['sk', 'or', 'v1', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4'].join('-');
    await fixture.repositories.messages.insert(
      {
        sessionId: fixture.session.id,
        speaker: { kind: 'participant', name: 'Grok' },
        role: 'assistant',
        text: `Use ${key} for it.`,
        deliveryStatus: 'delivered',
      },
      fixture.clock.now(),
    );
    const outcome = await fixture.run();
    expect(outcome).toMatchObject({ status: 'withheld', reason: expect.stringMatching(/secret/) });
    expect(model.calls).toHaveLength(0);
  });

  it('a failing model fails only its own turn: nothing is stored and the runner does not throw', async () => {
    const fixture = await turnFixture({ claude: new ScriptedModel([modelError(Object.assign(new Error('upstream 400: bad model id'), { status: 400 }))]) });
    open = fixture.repositories;
    const outcome = await fixture.run();
    expect(outcome.status).toBe('failed');
    expect((await fixture.stored()).filter((message) => message.speaker.kind !== 'human')).toEqual([]);
  });

  it('a turn cut while streaming keeps what was shown, marked as interrupted', async () => {
    const fixture = await turnFixture({
      claude: new ScriptedModel([modelStreamResponder(({ request }) => streamUntilAborted(['Start with ', 'the payment path'], request.signal))]),
    });
    open = fixture.repositories;
    const control = new TurnControl(new AbortController().signal, fixture.clock, null);
    const outcome = fixture.run(control);
    await until(() => fixture.transport.messages.some((message) => message.preview), 'the preview shows the first words');
    // Previews are edited at most once a second: a second later the room shows everything streamed so far.
    await fixture.clock.advance(1000);
    await until(() => fixture.transport.messages.some((message) => message.content.includes('payment path')), 'the preview shows the text');
    control.cut('preempted');
    const settled = await outcome;

    expect(settled).toMatchObject({ status: 'interrupted', cut: 'preempted' });
    if (settled.status !== 'interrupted') return;
    expect(settled.message?.text).toBe(`Start with the payment path\n\n${INTERRUPTED_MARK}`);
    expect(settled.message?.interrupted).toBe(true);
  });

  it('a turn cut before its model wrote a word is dropped: no message at all, and nothing counted', async () => {
    const model = new ScriptedModel([modelStreamResponder(({ request }) => streamUntilAborted([], request.signal))]);
    const fixture = await turnFixture({ claude: model });
    open = fixture.repositories;
    const before = await fixture.current();
    const control = new TurnControl(new AbortController().signal, fixture.clock, null);
    const outcome = fixture.run(control);
    await until(() => model.calls.length > 0, 'the model was called');
    control.cut('stopped');
    expect(await outcome).toEqual({ status: 'interrupted', message: null, cut: 'stopped' });
    expect((await fixture.stored()).filter((message) => message.speaker.kind === 'participant')).toEqual([]);
    const after = await fixture.current();
    expect(after?.totalTokens).toBe(before?.totalTokens);
    expect(after?.messageCount).toBe(before?.messageCount);
  });

  it('an answer withdrawn at a handover leaves the room and stores nothing, but what its model wrote counts toward the session', async () => {
    const fixture = await turnFixture({
      claude: new ScriptedModel([modelStreamResponder(({ request }) => streamUntilAborted(['Start with ', 'the payment path'], request.signal))]),
    });
    open = fixture.repositories;
    const before = await fixture.current();
    const control = new TurnControl(new AbortController().signal, fixture.clock, null);
    const outcome = fixture.run(control);
    await until(() => fixture.transport.messages.some((message) => message.preview), 'the preview shows the first words');
    control.cut('handed_over');

    expect(await outcome).toEqual({ status: 'interrupted', message: null, cut: 'handed_over' });
    expect((await fixture.stored()).filter((message) => message.speaker.kind === 'participant')).toEqual([]);
    const after = await fixture.current();
    // The prompt as estimated before sending it, and the written words counted.
    expect((after?.totalTokens ?? 0) - (before?.totalTokens ?? 0)).toBeGreaterThan(5);
    expect(after?.messageCount).toBe(before?.messageCount);
  });
});

/** Streams `deltas` and completes, as a model that answers at once does. */
async function* streamOf(deltas: string[]): AsyncIterable<StreamEvent> {
  yield { type: 'response_started' };
  for (const delta of deltas) yield { type: 'output_text_delta', delta };
  yield {
    type: 'response_done',
    response: {
      id: 'r-label',
      usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      output: [assistantMessage(deltas.join(''))],
    },
  };
}

/** Streams `deltas`, then hangs until the request is aborted, as a slow model does when a turn is cut. */
async function* streamUntilAborted(deltas: string[], signal: AbortSignal | undefined): AsyncIterable<StreamEvent> {
  yield { type: 'response_started' };
  for (const delta of deltas) yield { type: 'output_text_delta', delta };
  await new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  const error = new Error('aborted');
  error.name = 'AbortError';
  throw error;
}
