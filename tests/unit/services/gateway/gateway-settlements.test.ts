/**
 * A claimed message whose handling ended without storing it (a command, a refusal, a failure) is settled, so that a
 * catch-up after its process is gone does not act on it again; one a process that is gone claimed and never handled
 * is read again and taken in once (it was lost for good: its claim kept everyone else away).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from '../../../../src/core/database-unreachable.ts';
import { BLOCKED, closeGatewayFixtures, gatewayFixture } from '../../../support/gateway-fixture.ts';

afterEach(closeGatewayFixtures);

type Fixture = Awaited<ReturnType<typeof gatewayFixture>>;

/** Each claim of the fixture's transport: its message's id and whether it is settled. */
async function claims({ repositories }: Fixture): Promise<Record<string, boolean>> {
  const rows = await repositories.handle.db.selectFrom('inbound_claims').select(['external_id', 'settled']).where('transport', '=', 'memory').execute();
  return Object.fromEntries(rows.map((row) => [row.external_id, row.settled]));
}

describe('settling the claims of messages that store nothing', () => {
  it('settles a command, a refusal, a failure and invisible text, and leaves a stored message to its row', async () => {
    const fixture = await gatewayFixture();
    const { gateway, inbound, setCommandReply } = fixture;
    const stored = inbound('A thought worth keeping.');
    const command = inbound('!status');
    const refused = inbound(`my key is ${BLOCKED}`);
    const invisible = inbound('\u200b\u200b');
    const failed = inbound('!config broken');
    await gateway.handleMessage(stored);
    await gateway.handleMessage(command);
    await gateway.handleMessage(refused);
    await gateway.handleMessage(invisible);
    setCommandReply(async () => {
      throw new Error('the command broke');
    });
    expect((await gateway.handleMessage(failed))?.private).toBe(true);
    expect(await claims(fixture)).toEqual({
      [stored.externalId]: false,
      [command.externalId]: true,
      [refused.externalId]: true,
      [invisible.externalId]: true,
      [failed.externalId]: true,
    });
  });

  it('leaves unsettled a command the database cut short, and answers a command whose settling failed', async () => {
    const fixture = await gatewayFixture();
    const { gateway, inbound, repositories, setCommandReply } = fixture;
    const cut = inbound('!status');
    setCommandReply(async () => {
      throw new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });
    });
    await expect(gateway.handleMessage(cut)).rejects.toThrow(/cannot reach my database/);
    setCommandReply(async (invocation) => ({ content: `ran !${invocation.name}`, private: false }));
    repositories.inbound.settle = async () => {
      throw new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });
    };
    const answered = inbound('!status');
    expect(await gateway.handleMessage(answered)).toEqual({ content: 'ran !status', private: false });
    expect(await claims(fixture)).toEqual({ [cut.externalId]: false, [answered.externalId]: false });
  });
});

describe('a message a process that is gone claimed and never handled', () => {
  it('is read again from just before it, and taken in once', async () => {
    const fixture = await gatewayFixture('active', { claimant: 'wrk-next' });
    const { gateway, inbound, repositories, session, storedMessages, answered } = fixture;
    const now = new Date('2026-01-01T00:00:00.000Z');
    for (const id of ['wrk-gone', 'wrk-next']) await repositories.jobs.registerInstance({ id, host: 'h', pid: 1 }, now);
    const lost = inbound('Did anyone read this?');
    // The process took the message and died before storing it: its claim (and the cursor it moved) stay.
    await repositories.inbound.claimAndAdvance('memory', session.roomId, lost.externalId, now, { id: 'wrk-gone', again: false });
    expect(await gateway.handleMessage({ ...lost })).toBeNull();
    expect(await storedMessages()).toEqual([]);
    await repositories.jobs.stopInstance('wrk-gone', now);

    const points = await gateway.catchUpPoints('memory', []);
    expect(points.find((point) => point.channelId === session.roomId)?.afterExternalId).toBe(String(BigInt(lost.externalId) - 1n));
    // The processes left, told another stopped, read only the rooms it left a message in, from just before it.
    const unfinished = await gateway.catchUpPoints('memory', [], { unfinishedOnly: true });
    expect(unfinished).toEqual([{ channelId: session.roomId, afterExternalId: String(BigInt(lost.externalId) - 1n) }]);
    expect(await gateway.handleMessage({ ...lost })).toBeNull();
    expect(await gateway.handleMessage({ ...lost })).toBeNull();
    expect((await storedMessages()).map((message) => message.text)).toEqual(['Did anyone read this?']);
    expect(answered).toHaveLength(1);
    // Taken in: the next catch-up reads the room from its cursor again.
    expect((await gateway.catchUpPoints('memory', [])).find((point) => point.channelId === session.roomId)?.afterExternalId).toBe(lost.externalId);
    expect(await gateway.catchUpPoints('memory', [], { unfinishedOnly: true })).toEqual([]);
  });
});
