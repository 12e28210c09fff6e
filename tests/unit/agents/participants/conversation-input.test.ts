import type { AgentInputItem } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { buildParticipantInput, EARLIER_HEADING, RECENT_CHAT_MESSAGES } from '../../../../src/agents/participants/conversation-input.ts';
import type { ChatMessage } from '../../../../src/core/domain.ts';
import { previousSpeaker } from '../../../../src/simulator/conversation-reading.ts';
import type { ChatCompletionRequest } from '../../../../src/simulator/chat-types.ts';
import { chatMessage } from '../../../support/chat-messages.ts';

const speakers = ['Bea', 'Claude', 'ChatGPT', 'Grok'];
const history = (count: number): ChatMessage[] =>
  Array.from({ length: count }, (_, index) => {
    const name = speakers[index % 4]!;
    return chatMessage({ id: index + 1, speaker: { kind: name === 'Bea' ? 'human' : 'participant', name }, text: `Point ${index} from ${name}.` });
  });

const roleOf = (item: AgentInputItem) => ('role' in item ? item.role : item.type);
const textOf = (item: AgentInputItem): string => {
  if (!('content' in item)) return '';
  if (typeof item.content === 'string') return item.content;
  return item.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
};
/** The chat request an OpenAI-compatible client sends for these items. */
const request = (items: AgentInputItem[]): ChatCompletionRequest => ({
  model: 'm',
  messages: [
    { role: 'system', content: 'You are Claude, a participant in a Brainstorm session.' },
    ...items.map((item) => ({ role: roleOf(item) === 'assistant' ? ('assistant' as const) : ('user' as const), content: textOf(item) })),
  ],
});

describe('a participant turn input', () => {
  it('stays a few items however long the history, and every message is in it once, in order', () => {
    const messages = history(200);
    const items = buildParticipantInput({ selfName: 'Claude', messages, record: null, answering: [messages.at(-4)!] });
    // One transcript, the recent messages as alternating turns (three a round of four speakers), and the cue.
    expect(items.length).toBeLessThanOrEqual(1 + RECENT_CHAT_MESSAGES + 1);
    expect(textOf(items[0]!).startsWith(`${EARLIER_HEADING}\n`)).toBe(true);
    const all = items.map(textOf).join('\n');
    const positions = messages.map((message) => all.indexOf(message.text));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(messages.every((message) => all.split(message.text).length === 2)).toBe(true);
    expect(textOf(items.at(-1)!)).toBe('[Room]: Your turn, Claude. Reply to Bea (person).');
  });

  it('shows recent own answers as its own turns and what others said in between as one attributed turn', () => {
    const messages = history(8);
    const items = buildParticipantInput({ selfName: 'Claude', messages, record: 'decisions so far', answering: [] });
    expect(items.map(roleOf)).toEqual(['user', 'user', 'assistant', 'user', 'assistant', 'user', 'user']);
    expect(textOf(items[0]!)).toBe('[Scribe record of the discussion so far]:\ndecisions so far');
    expect(textOf(items[2]!)).toBe('Point 1 from Claude.');
    expect(textOf(items[3]!)).toBe('[ChatGPT]: Point 2 from ChatGPT.\n\n[Grok]: Point 3 from Grok.\n\n[Bea (person)]: Point 4 from Bea.');
    expect(items.some((item) => textOf(item).startsWith(EARLIER_HEADING))).toBe(false);
  });

  it('lets a model that reads the last line answer the last speaker, not the cue or the record', () => {
    const messages = history(11);
    const reply = previousSpeaker(request(buildParticipantInput({ selfName: 'Claude', messages, record: 'decisions', answering: [] })));
    expect(reply).toEqual({ name: 'ChatGPT', text: 'Point 10 from ChatGPT.' });
  });
});
