import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.ts';
import type { ChatMessage, Session, SessionStatus } from '../../../../src/core/domain.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { InMemoryEventBus } from '../../../../src/core/event-bus.ts';
import type { CommandInvocation, GatewayReply, InboundMessage, SessionEvent, Transport } from '../../../../src/core/ports.ts';
import type { TurnTaking } from '../../../../src/core/service-ports.ts';
import { TransportRegistry } from '../../../../src/services/delivery/transport-registry.ts';
import { SessionGatewayService } from '../../../../src/services/gateway/session-gateway.ts';
import type { FloodGate } from '../../../../src/services/sessions/flood-gate.ts';
import type { PersonRevisions } from '../../../../src/services/sessions/person-revisions.ts';
import type { RoomClosures } from '../../../../src/services/sessions/room-closures.ts';
import type { PlannerFlow } from '../../../../src/services/sessions/planner-flow.ts';
import type { Screen, ScreenVerdict, SessionStarter } from '../../../../src/services/sessions/session-starter.ts';
import { openRepositories, quietLogger, storeSession, stub, type TestRepositories } from '../../../support/service-doubles.ts';

const BLOCKED = 'BLOCKED-TEXT';
const opened: TestRepositories[] = [];

afterEach(async () => {
  for (const repositories of opened.splice(0)) await repositories.handle.close();
});

/** A gateway over real repositories; the services behind it record what reached them. */
async function gatewayFixture(status: SessionStatus = 'active', { paceCertain = true } = {}) {
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
    closures: stub<Pick<RoomClosures, 'close'>>('closures'),
    revisions: stub<Pick<PersonRevisions, 'storedFor' | 'edit' | 'remove'>>('revisions'),
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

describe('SessionGatewayService: what is not taken in', () => {
  it('ignores an empty message without claiming it', async () => {
    const { gateway, inbound, repositories, screened } = await gatewayFixture();
    expect(await gateway.handleMessage(inbound('  \n '))).toBeNull();
    expect((await repositories.inbound.cursors('memory')).size).toBe(0);
    expect(screened).toEqual([]);
  });

  it('refuses a message of invisible characters only, storing nothing', async () => {
    const { gateway, inbound, storedMessages, answered } = await gatewayFixture();
    const reply = await gateway.handleMessage(inbound('\u200b\u2060\u200d'));
    expect(reply).toEqual({ content: 'That message has no visible text (only invisible characters), so it was not posted to the session.', private: true });
    expect(await storedMessages()).toEqual([]);
    expect(answered).toEqual([]);
  });

  it('acts on a message once: a second delivery of the same id does nothing', async () => {
    const { gateway, inbound, storedMessages, answered, stored, invocations, started } = await gatewayFixture();
    const message = inbound('Flags per customer?');
    expect(await gateway.handleMessage(message)).toBeNull();
    expect(await gateway.handleMessage({ ...message })).toBeNull();
    expect(await storedMessages()).toHaveLength(1);
    expect(answered).toHaveLength(1);
    expect(stored).toHaveLength(1);
    // Neither a command nor a topic is stored as a message: the claim alone keeps them from running twice.
    const command = inbound('!status');
    const topic = inbound('Flags for mobile', { roomId: null });
    for (const repeated of [command, command, topic, topic]) await gateway.handleMessage({ ...repeated });
    expect(invocations).toHaveLength(1);
    expect(started).toHaveLength(1);
  });

  it('stores nothing and says why when the screen blocks a message, deleting the message where it was posted', async () => {
    const { gateway, inbound, storedMessages, answered, deleted, session } = await gatewayFixture();
    const message = inbound(`my key is ${BLOCKED}`);
    const reply = await gateway.handleMessage(message);
    expect(reply).toEqual({ content: 'Refused your message. I deleted your message so the key is no longer visible here.', private: false, notPosted: true });
    expect(deleted).toEqual([`${session.roomId}/${message.externalId}`]);
    expect(await storedMessages()).toEqual([]);
    expect(answered).toEqual([]);
  });

  it('refuses a blocked display name before it looks at the text', async () => {
    const { gateway, inbound, storedMessages, screened, deleted } = await gatewayFixture();
    const reply = await gateway.handleMessage(inbound('Hello', { author: { id: 'u-bob', name: `Bob ${BLOCKED}`, isAdmin: false } }));
    expect(reply).toEqual({ content: 'Refused your display_name.', private: false, notPosted: true });
    expect(screened).toEqual([`display_name: Bob ${BLOCKED}`]);
    expect(deleted).toEqual([]);
    expect(await storedMessages()).toEqual([]);
  });
});

describe('SessionGatewayService: where a message goes', () => {
  it('hands a topic posted in a brainstorm channel to the starter', async () => {
    const { gateway, inbound, started } = await gatewayFixture();
    const message = inbound('  Feature flags for mobile  ', { roomId: null });
    expect(await gateway.handleMessage(message)).toEqual({ content: 'Opened a session on Feature flags for mobile.', private: false });
    expect(started).toEqual([{ message, topic: 'Feature flags for mobile' }]);
  });

  it("stores a person's message in an active session, counts it, and hands it to the turns", async () => {
    const { gateway, inbound, storedMessages, answered, stored, published, repositories, session } = await gatewayFixture();
    expect(await gateway.handleMessage(inbound('What about kill switches?', { url: 'https://chat.example/1' }))).toBeNull();
    const [message] = await storedMessages();
    expect(message).toMatchObject({
      text: 'What about kill switches?',
      speaker: { kind: 'human', name: 'Alice', id: 'u-alice' },
      externalUrl: 'https://chat.example/1',
    });
    expect(answered.map((entry) => [entry.session.id, entry.message.id])).toEqual([[session.id, message?.id]]);
    // Handed over with the row its count returned (the message counted), so the turns need not read it again.
    expect(answered[0]).toMatchObject({ counted: true, session: { messageCount: 1, aiRoundsSinceHuman: 0 } });
    expect(stored).toEqual([session.id]);
    expect(published).toContainEqual({ type: 'message', message });
    expect((await repositories.sessions.findById(session.id))?.messageCount).toBe(1);
  });

  it('takes the admission back when the message could not be stored, and tells the person to send it again', async () => {
    const { gateway, inbound, answered, repositories, paced, storedMessages } = await gatewayFixture();
    repositories.messages.insertCountingTurn = async () => {
      throw new Error('connection terminated unexpectedly');
    };
    const reply = await gateway.handleMessage(inbound('Is this kept?'));
    expect(reply?.private).toBe(true);
    expect(reply?.content).toMatch(/could not save that message.*send it again/);
    expect(reply?.content).not.toMatch(/connection terminated|Nothing you said was lost/);
    expect(paced).toEqual(['certain without the history', 'admission taken back']);
    expect(answered).toEqual([]);
    expect(await storedMessages()).toEqual([]);
  });

  for (const paceCertain of [true, false]) {
    it(`hands the turns the session exactly as counting left it, ${paceCertain ? 'counted as it is stored (pace certain)' : 'counted once paced'}`, async () => {
      const { gateway, inbound, answered, repositories, session, paced } = await gatewayFixture('active', { paceCertain });
      await gateway.handleMessage(inbound('And the rollback?'));
      expect(paced).toEqual(paceCertain ? ['certain without the history', 'admission kept'] : ['certain without the history', 'paced once stored']);
      expect(answered).toHaveLength(1);
      expect(answered[0]?.counted).toBe(true);
      expect(answered[0]?.session).toEqual(await repositories.sessions.findById(session.id));
    });
  }

  it('stores a message in a paused session without starting turns', async () => {
    const { gateway, inbound, storedMessages, answered } = await gatewayFixture('paused');
    expect(await gateway.handleMessage(inbound('Still there?'))).toEqual({
      content: 'Noted — the discussion is paused, so nobody will answer until `!continue`.',
      private: false,
    });
    expect(await storedMessages()).toHaveLength(1);
    expect(answered).toEqual([]);
  });

  it('runs a command through the command service, storing nothing', async () => {
    const { gateway, inbound, invocations, storedMessages, session, answered } = await gatewayFixture();
    expect(await gateway.handleMessage(inbound('!Status  now'))).toEqual({ content: 'ran !status', private: false });
    expect(invocations).toEqual([
      {
        transport: 'memory',
        roomId: session.roomId,
        channelId: 'channel-1',
        author: { id: 'u-alice', name: 'Alice', isAdmin: false },
        name: 'status',
        args: 'now',
      },
    ]);
    expect(await storedMessages()).toEqual([]);
    expect(answered).toEqual([]);
  });

  it("turns a command's refusal into a private reply", async () => {
    const { gateway, inbound, setCommandReply } = await gatewayFixture();
    setCommandReply(async () => {
      throw new BrainstormError('bad_input', 'Say what to explore.');
    });
    expect(await gateway.handleMessage(inbound('!explore'))).toEqual({ content: 'Say what to explore.', private: true });
  });
});
