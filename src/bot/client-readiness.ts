/**
 * Waits for the gateway's first READY before the transport touches Discord. The app's job worker starts before the
 * bot logs in (a restart's catch-up needs the app), so a delivery left over from the last process can run first:
 * without a token its request fails, and between login and READY discord.js knows no guild, so the thread resolves
 * to nothing and the delivery gave up for good ("not a text channel") — an answer people never saw.
 */
import { Events, type Client } from 'discord.js';
import type { Clock } from '../core/clock.ts';
import { DiscordTransportError } from './discord-errors.ts';

/** The first READY of a client, awaited with a bound. */
export class ClientReadiness {
  private readyOnce: boolean;
  private readonly ready: Promise<void>;

  constructor(
    client: Client,
    private readonly clock: Clock,
    private readonly waitMs: number,
  ) {
    this.readyOnce = client.isReady();
    this.ready = new Promise((resolve) => client.once(Events.ClientReady, () => resolve()));
    void this.ready.then(() => (this.readyOnce = true));
  }

  /**
   * Resolves once the client has been ready (at once ever after, so a stopping process fails as before rather than
   * waiting); rejects with a retryable `service_unavailable` after `waitMs` of the clock without READY.
   */
  async connected(): Promise<void> {
    if (this.readyOnce) return;
    const timeout = new AbortController();
    const waited = this.clock.sleep(this.waitMs, timeout.signal).then(
      () => 'timeout' as const,
      () => 'aborted' as const,
    );
    try {
      if ((await Promise.race([this.ready.then(() => 'ready' as const), waited])) === 'timeout') throw notConnected(this.waitMs);
    } finally {
      timeout.abort();
    }
  }
}

function notConnected(waitMs: number): DiscordTransportError {
  return new DiscordTransportError(
    'service_unavailable',
    `The bot has not connected to Discord yet (waited ${Math.round(waitMs / 1000)} s); it will try again.`,
    'unavailable',
    true,
    null,
    null,
  );
}
