import { afterEach, describe, expect, it } from 'vitest';
import { closeGatewayFixtures, gatewayFixture } from '../../../support/gateway-fixture.ts';

afterEach(closeGatewayFixtures);

describe('SessionGatewayService: a message deleted while it is being taken in', () => {
  it('is removed as soon as it is stored, and nobody answers it', async () => {
    let screening: () => void = () => undefined;
    let letScreenGo: () => void = () => undefined;
    const screeningStarted = new Promise<void>((resolve) => (screening = resolve));
    const fixture = await gatewayFixture('active', {
      realRevisions: true,
      // Its handling is under way (claimed, being screened: its files read, the database slow) when the deletion comes.
      beforeScreen: (text) =>
        text === 'My home address is 12 Elm St' ? (screening(), new Promise<void>((resolve) => (letScreenGo = resolve))) : Promise.resolve(),
    });
    const { gateway, inbound, storedMessages, answered } = fixture;
    const message = inbound('My home address is 12 Elm St');
    const handled = gateway.handleMessage(message);
    await screeningStarted;
    await gateway.messageDeleted({ transport: message.transport, externalId: message.externalId });
    letScreenGo();
    expect(await handled).toBeNull();
    expect(await storedMessages()).toEqual([]);
    expect(answered).toEqual([]);
    // A message deleted after it was stored goes as before.
    const later = inbound('Shall we pilot it?');
    await gateway.handleMessage(later);
    expect((await storedMessages()).map((stored) => stored.text)).toEqual(['Shall we pilot it?']);
    await gateway.messageDeleted({ transport: later.transport, externalId: later.externalId });
    expect(await storedMessages()).toEqual([]);
  });
});
