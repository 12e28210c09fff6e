/** Acknowledging a command's interaction when several processes of the installation receive it. */
import { DiscordAPIError, RESTJSONErrorCodes, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { Logger } from '../logging/logger.ts';

/**
 * Defers the interaction's reply; false when another process acknowledged it first. Unsharded processes all receive
 * every interaction: the first to acknowledge it runs the command, the others leave it (40060), which is no failure.
 */
export async function acknowledged(interaction: ChatInputCommandInteraction | ButtonInteraction, logger: Logger): Promise<boolean> {
  try {
    await interaction.deferReply();
    return true;
  } catch (error) {
    if (!(error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged)) throw error;
    logger.debug({ interaction: interaction.id }, 'another process answered this interaction');
    return false;
  }
}
