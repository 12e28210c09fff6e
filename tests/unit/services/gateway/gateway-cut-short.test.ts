/**
 * A person's message whose handling the database cut short after its claim committed (the claim's answer was lost, or
 * the store failed after it). The transport holds such a message and hands it over again; it must then be taken in
 * once, by the process whose claim it is, and by no other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from '../../../../src/core/database-unreachable.ts';
import { BrainstormError } from '../../../../src/core/errors.ts';
import { closeGatewayFixtures, gatewayFixture } from '../../../support/gateway-fixture.ts';

afterEach(closeGatewayFixtures);

const unreachable = () => new DatabaseUnreachableError({ cause: new Error('Connection terminated unexpectedly') });

/** Lets `target[name]` run, then throws as if the database's answer were lost; once. */
function loseAnswerOnce<Target extends object, Name extends keyof Target>(target: Target, name: Name): void {
  const original = target[name];
  if (typeof original !== 'function') throw new Error(`${String(name)} is not a method`);
  let lost = false;
  const replacement = async (...args: unknown[]): Promise<unknown> => {
    const result: unknown = await original.apply(target, args);
    if (lost) return result;
    lost = true;
    throw unreachable();
  };
  Object.assign(target, { [name]: replacement });
}

async function expectHeld(answer: Promise<unknown>): Promise<void> {
  const error: unknown = await answer.catch((caught: unknown) => caught);
  expect(BrainstormError.isInstance(error) && error.code === 'service_unavailable').toBe(true);
}

describe('a message the database cut short, handed over again', () => {
  it('is stored and answered once when its claim committed but the answer was lost', async () => {
    const { gateway, inbound, repositories, storedMessages, answered } = await gatewayFixture();
    loseAnswerOnce(repositories.inbound, 'claimAndAdvance');
    const message = inbound('Is this one kept?');
    await expectHeld(gateway.handleMessage(message));
    expect(await gateway.handleMessage({ ...message })).toBeNull();
    expect((await storedMessages()).map((stored) => stored.text)).toEqual(['Is this one kept?']);
    expect(answered).toHaveLength(1);
    // Taken in: a later delivery of it (a catch-up reading it again) does nothing.
    expect(await gateway.handleMessage({ ...message })).toBeNull();
    expect(answered).toHaveLength(1);
  });

  it('is stored and answered once when the store failed after the claim', async () => {
    const { gateway, inbound, repositories, storedMessages, answered } = await gatewayFixture();
    const insert = repositories.messages.insertCountingTurn.bind(repositories.messages);
    let failures = 1;
    repositories.messages.insertCountingTurn = async (...args) => {
      if (failures-- > 0) throw unreachable();
      return insert(...args);
    };
    const message = inbound('And this one?');
    await expectHeld(gateway.handleMessage(message));
    expect(await gateway.handleMessage({ ...message })).toBeNull();
    expect((await storedMessages()).map((stored) => stored.text)).toEqual(['And this one?']);
    expect(answered).toHaveLength(1);
  });

  it('runs a command once when its claim committed but the answer was lost', async () => {
    const { gateway, inbound, repositories, invocations } = await gatewayFixture();
    loseAnswerOnce(repositories.inbound, 'claimAndAdvance');
    const command = inbound('!status');
    await expectHeld(gateway.handleMessage(command));
    expect(await gateway.handleMessage({ ...command })).toEqual({ content: 'ran !status', private: false });
    expect(await gateway.handleMessage({ ...command })).toBeNull();
    expect(invocations).toHaveLength(1);
  });

  it('is left alone when another process claimed it, though this one tried it before', async () => {
    const { gateway, inbound, repositories, storedMessages, answered, session } = await gatewayFixture('active', { claimant: 'wrk-this' });
    const message = inbound('Who takes me?');
    // Another process took the message in; this one's claim never reached the database.
    expect(await repositories.inbound.claimAndAdvance('memory', session.roomId, message.externalId, new Date(), { id: 'wrk-other', again: false })).toBe(true);
    const claim = repositories.inbound.claimAndAdvance.bind(repositories.inbound);
    let failures = 1;
    repositories.inbound.claimAndAdvance = async (...args) => {
      if (failures-- > 0) throw unreachable();
      return claim(...args);
    };
    await expectHeld(gateway.handleMessage(message));
    expect(await gateway.handleMessage({ ...message })).toBeNull();
    expect(await storedMessages()).toEqual([]);
    expect(answered).toEqual([]);
  });
});
