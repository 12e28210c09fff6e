/** How the bot's replies are written in Discord: never pinging anyone, long ones split, buttons under the last part. */
import type { Message } from 'discord.js';
import type { GatewayReply } from '../core/ports.ts';
import { commandButtonRows } from './command-buttons.ts';
import { splitMessage } from './message-splitter.ts';

/** Replies from the bot never ping anyone either. */
export const NO_MENTIONS = { parse: [], repliedUser: false } as const;

/** The reply's buttons for its `part`th message of `parts`: under the last, where the list they act on ends. */
export function buttonsUnderLast(reply: GatewayReply, parts: number): (part: number) => { components?: ReturnType<typeof commandButtonRows> } {
  const components = commandButtonRows(reply.buttons);
  return (part) => (part === parts - 1 && components.length > 0 ? { components } : {});
}

/** A reply to a person's message (a `!` command's answer, a refusal): a plain bot reply in the same place. */
export async function replyToMessage(message: Message, reply: GatewayReply): Promise<void> {
  const [first, ...rest] = splitMessage(reply.content);
  if (!first) return;
  const underLast = buttonsUnderLast(reply, rest.length + 1);
  await message.reply({ content: first, allowedMentions: NO_MENTIONS, failIfNotExists: false, ...underLast(0) });
  for (const [index, chunk] of rest.entries())
    if (message.channel.isSendable()) await message.channel.send({ content: chunk, allowedMentions: NO_MENTIONS, ...underLast(index + 1) });
}
