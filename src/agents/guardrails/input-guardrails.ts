import type { InputGuardrail } from '@openai/agents';
import { scanForSecrets } from './secret-patterns.ts';
import { scanTexts, type SecretScanCache } from './secret-scan-cache.ts';

/** Input guardrail names (also the guardrail span names in the traces). */
export const INPUT_GUARDRAIL_NAMES = {
  plannerTopic: 'planner_topic_usable',
  participantInput: 'participant_input_no_secrets',
} as const;

/** The longest topic the Planner takes (the console's start form and commands refuse longer ones first). */
export const MAX_PLANNER_TOPIC_CHARS = 4_000;

/** What a run's input says, as one text (items' text parts only). */
export function inputText(input: string | readonly unknown[]): string {
  return inputTexts(input).join('\n');
}

/** The text of each item of a run's input (one per message of the conversation). */
export function inputTexts(input: string | readonly unknown[]): string[] {
  return typeof input === 'string' ? [input] : input.map((item) => textOf(item));
}

/**
 * An input item's text cut before each attributed line that follows a blank line (`\n\n[Name]: `): an item joins
 * several messages, and each part then keeps its cached verdict from the turns before. No secret pattern matches
 * a `[` after a blank line (a configured secret is one line), so a cut there never splits one.
 */
export function attributedParts(text: string): string[] {
  return text.split(/\n\n(?=\[[^\]\n]{1,80}\]: )/);
}

function textOf(item: unknown): string {
  if (typeof item !== 'object' || item === null) return '';
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
}

/** The topic of a Planner input: its first "Topic: ..." line and what follows it in that item. */
export function plannerTopic(input: string | readonly unknown[]): string {
  const first = typeof input === 'string' ? input : textOf(input[0]);
  return first.replace(/^Topic:\s*/, '');
}

function tripped(reason: string, details: Record<string, unknown> = {}) {
  return { tripwireTriggered: true, outputInfo: { reason, ...details } };
}

const passed = { tripwireTriggered: false, outputInfo: { reason: 'ok' } };

/**
 * The Planner's input guardrail: no model call on an empty or oversized topic, or on an input carrying a secret.
 * Commands and transports refuse these first; this is the wall in front of the model, so nothing that slipped
 * past them (a topic from an older session, a new transport) reaches it. It blocks the run (not in parallel).
 */
export function plannerInputGuardrail(options: { knownSecrets?: readonly string[] } = {}): InputGuardrail {
  return {
    name: INPUT_GUARDRAIL_NAMES.plannerTopic,
    runInParallel: false,
    execute: async ({ input }) => {
      const topic = plannerTopic(input).trim();
      if (topic.replace(/[\s\u200B-\u200D\u2060\uFEFF]/g, '') === '') return tripped('empty_topic');
      if (topic.length > MAX_PLANNER_TOPIC_CHARS) return tripped('topic_too_long', { length: topic.length });
      const secrets = scanForSecrets(inputText(input), options.knownSecrets ?? []);
      return secrets.count > 0 ? tripped('secret', { secretKinds: secrets.kinds }) : passed;
    },
  };
}

/**
 * A participant's input guardrail: the conversation it is about to read carries no secret (people's messages are
 * screened when they arrive; this keeps a secret that reached the store some other way from reaching a model). Each
 * message is scanned on its own, once while `scans` remembers it: the conversation is re-read every turn.
 */
export function participantInputGuardrail(options: { knownSecrets?: readonly string[]; scans?: SecretScanCache } = {}): InputGuardrail {
  return {
    name: INPUT_GUARDRAIL_NAMES.participantInput,
    runInParallel: false,
    execute: async ({ input }) => {
      const secrets = scanTexts(inputTexts(input).flatMap(attributedParts), options.knownSecrets ?? [], options.scans);
      return secrets.count > 0 ? tripped('secret', { secretKinds: secrets.kinds }) : passed;
    },
  };
}
