import { afterEach, describe, expect, it } from 'vitest';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { BLOCKED, closeGatewayFixtures, gatewayFixture } from '../../../support/gateway-fixture.ts';

afterEach(closeGatewayFixtures);

describe('SessionGatewayService: what is not taken in', () => {
  it('ignores an empty message without claiming it', async () => {
    const { gateway, inbound, repositories, screened } = await gatewayFixture();
    const empty = inbound('  \n ');
    expect(await gateway.handleMessage(empty)).toBeNull();
    expect((await repositories.inbound.cursors('memory', [empty.channelId, empty.roomId ?? ''])).size).toBe(0);
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
