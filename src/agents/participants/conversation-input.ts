import { assistant, user, type AgentInputItem } from '@openai/agents';
import type { ChatMessage } from '../../core/domain.ts';

/** How a message's speaker is shown to a model: humans are marked so models can tell them apart. */
export function attributedName(message: Pick<ChatMessage, 'speaker'>): string {
  return message.speaker.kind === 'human' ? `${message.speaker.name} (person)` : message.speaker.name;
}

/** One message as a line a model reads: `[Speaker]: text`. */
export function attributedLine(message: Pick<ChatMessage, 'speaker' | 'text'>): string {
  return `[${attributedName(message)}]: ${message.text}`;
}

/**
 * The input of a participant's turn: the record of older history (when the context was compressed), then
 * each message attributed to its speaker — its own as `assistant`, everyone else's as `user` — and a closing
 * cue naming what to answer.
 */
export function buildParticipantInput(options: {
  selfName: string;
  messages: ChatMessage[];
  record: string | null;
  answering: ChatMessage[];
}): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  if (options.record) items.push(user(`[Scribe record of the discussion so far]:\n${options.record}`));
  for (const message of options.messages) {
    const own = message.speaker.kind === 'participant' && message.speaker.name === options.selfName;
    items.push(own ? assistant(message.text) : user(attributedLine(message)));
  }
  const targets = [...new Set(options.answering.map(attributedName))];
  const cue = targets.length > 0 ? `Your turn, ${options.selfName}. Reply to ${targets.join(', ')}.` : `Your turn, ${options.selfName}.`;
  items.push(user(`[Room]: ${cue}`));
  return items;
}
