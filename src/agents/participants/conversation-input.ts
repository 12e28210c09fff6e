import { assistant, user, type AgentInputItem, type protocol } from '@openai/agents';
import type { ChatMessage } from '../../core/domain.ts';

type UserContent = protocol.UserContent;

/** How a message's speaker is shown to a model: humans are marked so models can tell them apart. */
export function attributedName(message: Pick<ChatMessage, 'speaker'>): string {
  return message.speaker.kind === 'human' ? `${message.speaker.name} (person)` : message.speaker.name;
}

/** One message as a line a model reads: `[Speaker]: text`. */
export function attributedLine(message: Pick<ChatMessage, 'speaker' | 'text'>): string {
  return `[${attributedName(message)}]: ${message.text}`;
}

/** The newest messages a participant reads as chat turns; older ones are one transcript. */
export const RECENT_CHAT_MESSAGES = 12;
/** The heading of the transcript of older messages. */
export const EARLIER_HEADING = 'Earlier in the discussion (oldest first):';
/** The heading of the Scribe record, when the context was compressed. */
export const RECORD_HEADING = '[Scribe record of the discussion so far]:';

/** Between two messages in one input item. */
const BETWEEN_MESSAGES = '\n\n';

/**
 * The input of a participant's turn, in few items whatever the history's length: the record of older history (when
 * the context was compressed); the older messages as one attributed transcript; the newest
 * `RECENT_CHAT_MESSAGES` as chat turns (its own as `assistant`, what others said in between as one `user` item, each
 * line attributed); and a closing cue naming what to answer. Few items matter: the Agents SDK clones and keys every
 * input item several times per run (about 0.1 ms each here), while a model reads the same words either way (and
 * Anthropic's API joins consecutive user turns itself). The transcript only grows at its end, so a provider's prompt
 * cache still matches everything before it.
 */
export function buildParticipantInput(options: {
  selfName: string;
  messages: ChatMessage[];
  record: string | null;
  answering: ChatMessage[];
  /** Images to show with the recent messages that carry them (message id to addresses; see `imagesToShow`). */
  images?: ReadonlyMap<number, readonly string[]>;
}): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  if (options.record) items.push(user(`${RECORD_HEADING}\n${options.record}`));
  const split = Math.max(0, options.messages.length - RECENT_CHAT_MESSAGES);
  const earlier = options.messages.slice(0, split);
  if (earlier.length > 0) items.push(user(`${EARLIER_HEADING}\n${earlier.map(attributedLine).join(BETWEEN_MESSAGES)}`));
  items.push(...chatTurns(options.selfName, options.messages.slice(split), options.images ?? new Map()));
  items.push(user(`[Room]: ${turnCue(options.selfName, options.answering)}`));
  return items;
}

/** The room's cue closing a participant's input. */
export function turnCue(selfName: string, answering: ChatMessage[]): string {
  const targets = [...new Set(answering.map(attributedName))];
  return targets.length > 0 ? `Your turn, ${selfName}. Reply to ${targets.join(', ')}.` : `Your turn, ${selfName}.`;
}

/**
 * Messages as chat turns: the participant's own as `assistant`, each run of others' lines as one `user` item, with
 * the images shown for those messages after its text (a model that sees images reads them with the words).
 */
function chatTurns(selfName: string, messages: ChatMessage[], images: ReadonlyMap<number, readonly string[]>): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  let others: string[] = [];
  let addresses: string[] = [];
  const flush = () => {
    if (others.length > 0) items.push(user(addresses.length > 0 ? withImages(others.join(BETWEEN_MESSAGES), addresses) : others.join(BETWEEN_MESSAGES)));
    others = [];
    addresses = [];
  };
  for (const message of messages) {
    if (message.speaker.kind === 'participant' && message.speaker.name === selfName) {
      flush();
      items.push(assistant(message.text));
    } else {
      others.push(attributedLine(message));
      addresses.push(...(images.get(message.id) ?? []));
    }
  }
  flush();
  return items;
}

function withImages(text: string, addresses: readonly string[]): UserContent[] {
  return [{ type: 'input_text', text }, ...addresses.map((image): UserContent => ({ type: 'input_image', image }))];
}
