import type { Logger } from 'pino';
import type { InboundMessage } from '../../core/ports.ts';
import type { TransportRegistry } from '../delivery/transport-registry.ts';

/**
 * Takes down a person's message that was refused for holding a secret: it must not stay readable where it was
 * posted. Deletes it, or asks its author to; returns what to add to the refusal's reply.
 */
export async function retractSecret(transports: TransportRegistry, logger: Logger, message: InboundMessage): Promise<string> {
  const transport = transports.has(message.transport) ? transports.get(message.transport) : null;
  if (!transport?.deleteMessage) return '';
  const askToDelete = ' Please delete your message now: everyone here can still read it';
  try {
    const outcome = await transport.deleteMessage(message.roomId ?? message.channelId, message.externalId);
    return outcome === 'deleted'
      ? ' I deleted your message so the key is no longer visible here.'
      : `${askToDelete}, and I lack the permission (Manage Messages) to remove it.`;
  } catch (error) {
    logger.warn({ err: error, transport: message.transport }, 'could not delete a message holding a secret');
    return `${askToDelete}.`;
  }
}
