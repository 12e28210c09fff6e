/**
 * A scripted SessionGateway for console tests: it plays the services' side of a local session (room,
 * Planner questions, plan, approval, three participants with traces) through the real repositories, the
 * real LocalTransport and the real event bus, so the console is tested against the same contracts.
 */
import type { DocumentsRepository } from '../../../../src/repositories/documents-repository.ts';
import type { MessagesRepository } from '../../../../src/repositories/messages-repository.ts';
import type { SpanRecord, TracesRepository } from '../../../../src/repositories/traces-repository.ts';
import type { SessionsRepository } from '../../../../src/repositories/sessions-repository.ts';
import type { ManualClock } from '../../../../src/core/clock.ts';
import type { Session, SessionPlan, Speaker } from '../../../../src/core/domain.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import type { CommandInvocation, EventBus, GatewayReply, InboundMessage, MessageAction, SessionGateway } from '../../../../src/core/ports.ts';
import type { LocalTransport } from '../../../../src/web/local-transport.ts';
import type { CostSource } from '../../../../src/core/cost.ts';

/** A span with defaults, for building traces in tests and the bench. */
export function span(fields: Partial<SpanRecord> & Pick<SpanRecord, 'id' | 'traceId' | 'type' | 'name' | 'startedAt'>): SpanRecord {
  return {
    parentId: null,
    sessionId: null,
    endedAt: null,
    data: {},
    error: null,
    model: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    messageId: null,
    ...fields,
  };
}

/** What the scripted gateway plays with. */
export interface ScriptedGatewayDependencies {
  sessions: SessionsRepository;
  messages: MessagesRepository;
  documents: DocumentsRepository;
  traces: TracesRepository;
  transport: LocalTransport;
  events: EventBus;
  clock: ManualClock;
}

/** The three participants of the script. */
export const PARTICIPANTS = [
  { name: 'Claude', model: 'anthropic/claude-sonnet-4.5' },
  { name: 'ChatGPT', model: 'openai/gpt-5' },
  { name: 'Grok', model: 'x-ai/grok-4' },
] as const;

/** Claude's endpoint sends its cost; ChatGPT's and Grok's are estimated from the price table. */
const COST_SOURCES: readonly CostSource[] = ['provider', 'price_table', 'price_table'];

const PLANNER: Speaker = { kind: 'planner', name: 'Planner' };

const PLAN: SessionPlan = {
  expandedTopic: 'How a small team can ship weekly without burning out.',
  objectives: ['Name three habits', 'Agree on one experiment'],
  keyAreas: ['Planning', 'Review'],
  expectedFlow: ['Ideas', 'Critique', 'Decision'],
  parameters: { maxMessages: 30, maxTokens: 60_000, maxCostUsd: 1, timeoutMinutes: 30, maxContextPercent: 80 },
  estimate: { durationMinutes: 10, costUsd: 0.2, messages: 20 },
  critiqueRound: false,
};

/** A command reply written in markdown, as the real `!help` is. */
export const HELP_REPLY =
  '**Commands**\n- `!approve` starts the plan\n- `!stop` ends it\n\n```\n!config maxMessages 40\n```\n<script>window.__injected = 1</script>';

/** A gateway that follows a fixed script; `turns` counts the participant turns it has traced. */
export class ScriptedGateway implements SessionGateway {
  turns = 0;
  private readonly handling = new Set<Promise<unknown>>();

  constructor(private readonly deps: ScriptedGatewayDependencies) {}

  /**
   * Resolves once every message handed to the gateway has been handled. The console answers a new topic as soon as
   * its room opens and lets the gateway go on in the background (the page moves to the room at once), so a test that
   * reads what the start wrote waits for this first, never on timing.
   */
  async settled(): Promise<void> {
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
  }

  handleMessage(message: InboundMessage): Promise<GatewayReply | null> {
    const handled = this.handle(message);
    this.handling.add(handled);
    void handled.finally(() => this.handling.delete(handled)).catch(() => undefined);
    return handled;
  }

  private async handle(message: InboundMessage): Promise<GatewayReply | null> {
    if (message.roomId === null) return this.start(message);
    const session = await this.sessionOf(message.roomId);
    if (message.content.startsWith('!')) {
      const [name = '', ...rest] = message.content.slice(1).split(' ');
      return this.runCommand({
        transport: message.transport,
        roomId: message.roomId,
        channelId: message.channelId,
        author: message.author,
        name,
        args: rest.join(' '),
      });
    }
    await this.store(session, { kind: 'human', name: message.author.name, id: message.author.id }, message.content, { deliver: false });
    if (session.status === 'planning') await this.proposePlan(session, message.author.name, message.content);
    else if (session.status === 'active') await this.participantsAnswer(session);
    return null;
  }

  async screen(): Promise<GatewayReply | null> {
    return null;
  }

  async runCommand(invocation: CommandInvocation): Promise<GatewayReply> {
    const session = await this.sessionOf(invocation.roomId ?? '');
    if (invocation.name === 'approve' || invocation.name === 'start') {
      const approved = await this.deps.sessions.update(session.id, { status: 'active', startedAt: this.deps.clock.now() }, this.deps.clock.now(), [
        'awaiting_approval',
      ]);
      if (!approved) throw new BrainstormError('wrong_state', 'There is no plan waiting for approval.');
      this.deps.events.publish({ type: 'session', session: approved });
      await this.participantsAnswer(approved);
      return { content: `Plan approved by ${invocation.author.name}.`, private: false };
    }
    if (invocation.name === 'help') return { content: HELP_REPLY, private: true };
    if (invocation.name === 'status') return { content: `Status: ${session.status}, ${session.messageCount} messages.`, private: true };
    throw new BrainstormError('unknown_command', `Unknown command !${invocation.name}.`);
  }

  private async start(message: InboundMessage): Promise<GatewayReply | null> {
    const { clock, sessions } = this.deps;
    const room = await this.deps.transport.openRoom({
      originChannelId: message.channelId,
      originMessageId: message.externalId,
      title: message.content.slice(0, 100),
    });
    const session = await sessions.create(
      {
        id: `ses_${room.roomId}`,
        parentId: null,
        transport: 'local',
        roomId: room.roomId,
        roomUrl: room.url,
        originChannelId: message.channelId,
        originMessageId: message.externalId,
        topic: message.content,
        status: 'planning',
        createdBy: message.author,
      },
      clock.now(),
    );
    this.deps.events.publish({ type: 'session', session });
    await this.store(session, { kind: 'human', name: message.author.name, id: message.author.id }, message.content, { deliver: false });
    const questions = ['Who is the team?', 'What does "burning out" look like today?'];
    const updated = await sessions.update(session.id, { plannerState: { questions, answers: [], revisionRequests: [], questionRounds: 1 } }, clock.now());
    await this.store(updated ?? session, PLANNER, `Before I plan, two questions:\n1. ${questions[0]}\n2. ${questions[1]}`, {});
    return null;
  }

  private async proposePlan(session: Session, author: string, answer: string): Promise<void> {
    const { clock, sessions } = this.deps;
    const planned = await sessions.update(
      session.id,
      { plan: PLAN, status: 'awaiting_approval', plannerState: { ...session.plannerState, answers: [{ author, text: answer }] } },
      clock.now(),
    );
    if (!planned) return;
    this.deps.events.publish({ type: 'session', session: planned });
    await this.store(planned, PLANNER, `Plan: ${PLAN.expandedTopic}\nApprove with the button or !approve.`, { actions: ['approve_plan'] });
  }

  private async participantsAnswer(session: Session): Promise<void> {
    this.turns += 1;
    const traceId = `trace_turn_${session.id}_${this.turns}`;
    const started = this.deps.clock.now();
    const spans: SpanRecord[] = [];
    for (const [index, participant] of PARTICIPANTS.entries()) {
      await this.deps.clock.advance(400);
      const text = `${participant.name} (turn ${this.turns}): try a Friday demo, keep Mondays meeting-free.`;
      const stored = await this.store(session, { kind: 'participant', name: participant.name }, text, {
        traceId,
        model: participant.model,
        tokens: [900 + index, 120 + index],
        costSource: COST_SOURCES[index],
      });
      const at = (offset: number) => new Date(started.getTime() + index * 50 + offset);
      spans.push(
        span({
          id: `${traceId}_agent_${index}`,
          traceId,
          type: 'agent',
          name: participant.name,
          startedAt: at(0),
          endedAt: at(380),
          data: { name: participant.name },
        }),
        span({
          id: `${traceId}_gen_${index}`,
          traceId,
          parentId: `${traceId}_agent_${index}`,
          type: 'generation',
          name: 'generation',
          startedAt: at(10),
          endedAt: at(350),
          model: participant.model,
          inputTokens: 900 + index,
          outputTokens: 120 + index,
          costUsd: 0.002,
          costSource: COST_SOURCES[index],
          messageId: stored.id,
          data: {
            agent: participant.name,
            input: [
              { role: 'system', content: `You are ${participant.name}, a participant in a Brainstorm session.` },
              { role: 'user', content: '[You]: <b>go</b>' },
            ],
            output: [{ role: 'assistant', content: text }],
          },
        }),
        span({
          id: `${traceId}_guard_${index}`,
          traceId,
          parentId: `${traceId}_agent_${index}`,
          type: 'guardrail',
          name: 'no_secrets',
          startedAt: at(352),
          endedAt: at(360),
          data: { name: 'no_secrets', triggered: index === 2 },
        }),
      );
    }
    spans.push(
      span({
        id: `${traceId}_handoff`,
        traceId,
        type: 'handoff',
        name: 'handoff',
        startedAt: new Date(started.getTime() + 5),
        endedAt: new Date(started.getTime() + 8),
        data: { from_agent: 'Claude', to_agent: 'Grok' },
      }),
    );
    await this.deps.traces.upsertTraces([
      { id: traceId, sessionId: session.id, name: `Turn ${this.turns}`, groupId: session.id, metadata: {}, startedAt: started, endedAt: this.deps.clock.now() },
    ]);
    await this.deps.traces.upsertSpans(spans.map((entry) => ({ ...entry, sessionId: session.id })));
    this.deps.events.publish({ type: 'trace', sessionId: session.id, traceId });
    await this.deps.documents.write(
      session.id,
      'record',
      `# Record\n\nTurn ${this.turns}: three participants spoke; Claude opened (#3).\n\n| Speaker | Messages |\n| --- | ---: |\n| Claude | ${this.turns} |\n\n_The record cites messages by number._ [javascript link](javascript:alert(1))\n\n## Next steps\n- [ ] Pilot the async doc — Ana\n- [x] Agree on a TTL — Bo`,
      {},
      this.deps.clock.now(),
    );
  }

  private async store(
    session: Session,
    speaker: Speaker,
    text: string,
    options: { deliver?: boolean; actions?: MessageAction[]; traceId?: string; model?: string; tokens?: [number, number]; costSource?: CostSource },
  ) {
    const { messages, sessions, clock, events, transport } = this.deps;
    const [inputTokens, outputTokens] = options.tokens ?? [0, 0];
    const deliver = options.deliver !== false;
    const { message } = await messages.insert(
      {
        sessionId: session.id,
        speaker,
        role: speaker.kind === 'human' ? 'user' : 'assistant',
        text,
        model: options.model ?? null,
        inputTokens,
        outputTokens,
        costUsd: options.tokens ? 0.002 : 0,
        ...(options.costSource ? { costSource: options.costSource } : {}),
        traceId: options.traceId ?? null,
        deliveryStatus: deliver ? 'pending' : 'received',
      },
      clock.now(),
    );
    await sessions.addUsage(session.id, { messages: 1, tokens: inputTokens + outputTokens, costUsd: message.costUsd }, clock.now());
    events.publish({ type: 'message', message });
    if (deliver) {
      const delivered = await transport.deliver(
        session.roomId,
        { speaker, content: text, replyTo: [], ...(options.actions ? { actions: options.actions } : {}), simulated: true },
        {
          previewExternalId: null,
          deliveredExternalIds: [],
          onChunkDelivered: (externalId, url) => messages.appendExternalId(message.id, externalId, url),
        },
      );
      // The last chunk's id comes back rather than through onChunkDelivered (the delivery service stores it so too).
      const last = delivered.externalIds.at(-1);
      if (last) await messages.appendExternalId(message.id, last, delivered.url);
      await messages.setDeliveryStatus(message.id, 'delivered');
    }
    return message;
  }

  private async sessionOf(roomId: string): Promise<Session> {
    const session = await this.deps.sessions.findByRoom('local', roomId);
    if (!session) throw new BrainstormError('not_found', 'No session lives in this room.');
    return session;
  }
}
