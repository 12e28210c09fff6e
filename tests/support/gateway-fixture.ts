/**
 * A session gateway over real repositories (PGlite); the services behind it are doubles that record what reached them.
 */
import { ManualClock } from '../../src/core/clock.ts';
import type { ChatMessage, Session, SessionStatus } from '../../src/core/domain.ts';
import { InMemoryEventBus } from '../../src/core/event-bus.ts';
import type { CommandInvocation, GatewayReply, InboundMessage, SessionEvent, Transport } from '../../src/core/ports.ts';
import type { TurnTaking } from '../../src/core/service-ports.ts';
import { TransportRegistry } from '../../src/services/delivery/transport-registry.ts';
import { SessionGatewayService } from '../../src/services/gateway/session-gateway.ts';
import type { FloodGate } from '../../src/services/sessions/flood-gate.ts';
import { PersonRevisions } from '../../src/services/sessions/person-revisions.ts';
import type { RoomClosures } from '../../src/services/sessions/room-closures.ts';
import type { PlannerFlow } from '../../src/services/sessions/planner-flow.ts';
import type { Screen, ScreenVerdict, SessionStarter } from '../../src/services/sessions/session-starter.ts';
import { openRepositories, quietLogger, storeSession, stub, type TestRepositories } from './service-doubles.ts';

/** The text the fixture's screen blocks (as a secret), in a message or a display name. */
export const BLOCKED = 'BLOCKED-TEXT';
const opened: TestRepositories[] = [];

/** Closes the repositories of every fixture made since the last call (call it in `afterEach`). */
export async function closeGatewayFixtures(): Promise<void> {
  for (const repositories of opened.splice(0)) await repositories.handle.close();
}

/** A gateway over real repositories; the services behind it record what reached them. */
export async function gatewayFixture(
  status: SessionStatus = 'active',
  {
    paceCertain = true,
    claimant = 'wrk-test',
    beforeScreen = async () => undefined,
    realRevisions = false,
  }: { paceCertain?: boolean; claimant?: string; beforeScreen?: (text: string) => Promise<void>; realRevisions?: boolean } = {},
) {
  const clock = new ManualClock();
  const repositories = await openRepositories();
  opened.push(repositories);
  const session = await storeSession(repositories.sessions, clock, { status });
  const answered: { session: Session; message: ChatMessage; counted: boolean }[] = [];
  const turns: TurnTaking = {
    onHumanMessage: (current, message, handover) => answered.push({ session: current, message, counted: handover?.counted === true }),
  };
  const invocations: CommandInvocation[] = [];
  let commandReply: (invocation: CommandInvocation) => Promise<GatewayReply> = async (invocation) => ({ content: `ran !${invocation.name}`, private: false });
  const started: { message: InboundMessage; topic: string }[] = [];
  const starter: Pick<SessionStarter, 'start'> = {
    start: async (message, topic) => {
      started.push({ message, topic });
      return { content: `Opened a session on ${topic}.`, private: false };
    },
  };
  const screened: string[] = [];
  // Blocks the marker text as a secret and any display name containing it.
  const screen: Screen = async (text, _sessionId, subject): Promise<ScreenVerdict> => {
    await beforeScreen(text);
    screened.push(`${subject}: ${text}`);
    return text.includes(BLOCKED) ? { verdict: 'blocked', explanation: `Refused your ${subject}.`, reason: 'secret' } : { verdict: 'ok' };
  };
  const deleted: string[] = [];
  const transport = stub<Transport>('transport', {
    name: 'memory',
    deleteMessage: async (channelId, externalId) => {
      deleted.push(`${channelId}/${externalId}`);
      return 'deleted';
    },
  });
  const events = new InMemoryEventBus();
  const published: SessionEvent[] = [];
  events.subscribe((event) => published.push(event));
  const stored: string[] = [];
  const paced: string[] = [];
  const floodGate: Pick<FloodGate, 'pace' | 'admitIfCertain' | 'settleAdmission'> = {
    admitIfCertain: () => {
      paced.push('certain without the history');
      return paceCertain;
    },
    settleAdmission: (_sessionId, _personId, kept) => {
      paced.push(kept ? 'admission kept' : 'admission taken back');
    },
    pace: async () => {
      paced.push('paced once stored');
      return 'counted';
    },
  };
  const gateway = new SessionGatewayService({
    sessions: repositories.sessions,
    messages: repositories.messages,
    transports: new TransportRegistry([transport]),
    planner: stub<Pick<PlannerFlow, 'onPersonMessage' | 'approve'>>('planner'),
    turns,
    commands: {
      run: (invocation) => {
        invocations.push(invocation);
        return commandReply(invocation);
      },
    },
    starter,
    screen,
    events,
    clock,
    logger: quietLogger(),
    onStored: async (sessionId) => {
      stored.push(sessionId);
    },
    floodGate,
    inbound: repositories.inbound,
    claimant,
    closures: stub<Pick<RoomClosures, 'close'>>('closures'),
    revisions: realRevisions
      ? new PersonRevisions({ revisions: repositories.revisions, events, clock, logger: quietLogger(), onChanged: async () => undefined })
      : stub<Pick<PersonRevisions, 'storedFor' | 'edit' | 'remove'>>('revisions'),
  });
  let nextId = 100;
  /** A message from Alice in the session's room (or, with `room: null`, in the brainstorm channel). */
  const inbound = (content: string, extra: Partial<InboundMessage> = {}): InboundMessage => {
    nextId += 1;
    return {
      transport: 'memory',
      roomId: session.roomId,
      channelId: 'channel-1',
      externalId: String(nextId),
      author: { id: 'u-alice', name: 'Alice', isAdmin: false },
      content,
      ...extra,
    };
  };
  const storedMessages = () => repositories.messages.listForSession(session.id);
  const setCommandReply = (reply: typeof commandReply) => (commandReply = reply);
  return {
    gateway,
    session,
    repositories,
    answered,
    invocations,
    started,
    screened,
    deleted,
    published,
    stored,
    inbound,
    storedMessages,
    setCommandReply,
    paced,
  };
}
