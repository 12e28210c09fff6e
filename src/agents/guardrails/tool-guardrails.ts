import { defineToolInputGuardrail, ToolGuardrailFunctionOutputFactory, type ToolInputGuardrailDefinition } from '@openai/agents';
import type { LimitsConfig } from '../../config/app-config.ts';
import type { AgentContext } from '../../core/agent-context.ts';
import { traceGuardrail } from './guardrail-span.ts';
import { scanForSecrets } from './secret-patterns.ts';
import { findMentions } from './text-checks.ts';

/** A tool input guardrail over our run context. */
export type BrainstormToolGuardrail = ToolInputGuardrailDefinition<AgentContext>;

/** Guardrail names on tools (also the guardrail span names in the traces). */
export const TOOL_GUARDRAIL_NAMES = {
  plannerBounds: 'start_session_parameters_in_bounds',
  postToDiscord: 'post_to_discord_content',
  updateNotion: 'update_notion_content',
} as const;

export interface ToolCheck {
  triggered: boolean;
  reason?: string;
  details?: Record<string, unknown>;
  /** Told to the model so it can revise its call. */
  message?: string;
}

function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw === '' ? '{}' : raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Builds a tool input guardrail whose check runs inside a guardrail span (the SDK traces none for tools). */
export function tracedToolGuardrail(
  name: string,
  check: (args: Record<string, unknown>, context: AgentContext | undefined) => ToolCheck,
): BrainstormToolGuardrail {
  return defineToolInputGuardrail<AgentContext>({
    name,
    run: async ({ toolCall, context }) => {
      const decision = await traceGuardrail(
        name,
        () => {
          const args = parseArguments(toolCall.arguments);
          return args ? check(args, context.context) : { triggered: true, reason: 'invalid_arguments', message: 'The tool arguments must be a JSON object.' };
        },
        { sessionId: context.context?.sessionId ?? null },
      );
      return decision.triggered
        ? ToolGuardrailFunctionOutputFactory.rejectContent(decision.message ?? `Rejected by ${name}.`, { reason: decision.reason })
        : ToolGuardrailFunctionOutputFactory.allow({ reason: 'ok' });
    },
  });
}

function numberAt(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The bounds each plan parameter must respect, from the admin limits. */
export function planParameterBounds(limits: LimitsConfig): Record<string, { min: number; max: number }> {
  return {
    maxMessages: { min: 1, max: limits.maxMessages },
    maxTokens: { min: 1000, max: limits.maxTokens },
    maxCostUsd: { min: 0, max: limits.maxCostUsd },
    timeoutMinutes: { min: 1, max: limits.timeoutMinutes },
    maxContextPercent: { min: 10, max: limits.maxContextPercent },
  };
}

/** Lists every plan parameter outside its bounds, as sentences the Planner can act on. */
export function findOutOfBoundsParameters(parameters: unknown, limits: LimitsConfig): string[] {
  const given = typeof parameters === 'object' && parameters !== null ? (parameters as Record<string, unknown>) : {};
  return Object.entries(planParameterBounds(limits)).flatMap(([key, bounds]) => {
    const value = numberAt(given[key]);
    if (value === null) return [`parameters.${key} is missing; choose a value between ${bounds.min} and ${bounds.max}`];
    if (value < bounds.min || value > bounds.max) return [`parameters.${key} is ${value}; it must be between ${bounds.min} and ${bounds.max}`];
    return [];
  });
}

/**
 * Tool input guardrail for the Planner's `start_session`. It never trips: out-of-bounds parameters and missing
 * objectives are clamped by the planner flow, with a note under the plan (a rejection could leave a forced
 * Planner with no way to a plan, and a plan approved under older limits would fail after the person approved
 * it). It stays on the tool so every proposal shows a guardrail span; `_limits` is kept for callers that pass
 * the admin bounds (see `findOutOfBoundsParameters` for the same bounds as sentences).
 */
export function plannerBoundsGuardrail(_limits: LimitsConfig | (() => LimitsConfig)): BrainstormToolGuardrail {
  return tracedToolGuardrail(TOOL_GUARDRAIL_NAMES.plannerBounds, () => ({ triggered: false }));
}

function firstText(args: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return null;
}

/** Tool input guardrail for `post_to_discord`: not empty, not longer than `maxChars`, no mentions, no secrets. */
export function postToDiscordGuardrail(options: { maxChars?: number; knownSecrets?: readonly string[] } = {}): BrainstormToolGuardrail {
  const maxChars = options.maxChars ?? 4000;
  return tracedToolGuardrail(TOOL_GUARDRAIL_NAMES.postToDiscord, (args) => {
    const text = firstText(args, ['content', 'message', 'text']) ?? '';
    if (text.trim() === '') return { triggered: true, reason: 'empty', message: 'The message is empty; write what you want to post.' };
    if (text.length > maxChars) {
      return {
        triggered: true,
        reason: 'too_long',
        details: { length: text.length },
        message: `The message has ${text.length} characters; keep it under ${maxChars}.`,
      };
    }
    return screenPostedText(text, options.knownSecrets ?? [], 'message');
  });
}

/** What no post or document may carry: a mention that would ping people, or a secret. */
export function screenPostedText(text: string, knownSecrets: readonly string[], noun: 'message' | 'document'): ToolCheck {
  const mentions = findMentions(text);
  if (mentions.length > 0)
    return { triggered: true, reason: 'mentions', details: { mentions }, message: 'Do not use @everyone, @here or <@...> mentions; refer to people by name.' };
  const secrets = scanForSecrets(text, knownSecrets);
  if (secrets.count > 0)
    return {
      triggered: true,
      reason: 'secret',
      details: { secretKinds: secrets.kinds },
      message: `The ${noun} contains what looks like a secret key; remove it.`,
    };
  return { triggered: false };
}

/** What no document may carry into Notion: a secret, or a mention that would ping people from a Notion page. */
export function screenDocumentText(text: string, knownSecrets: readonly string[]): ToolCheck {
  return screenPostedText(text, knownSecrets, 'document');
}

/** Tool input guardrail for `update_notion`: markdown present and not larger than `maxChars`, no secrets, no mentions. */
export function updateNotionGuardrail(options: { maxChars?: number; knownSecrets?: readonly string[] } = {}): BrainstormToolGuardrail {
  const maxChars = options.maxChars ?? 200_000;
  return tracedToolGuardrail(TOOL_GUARDRAIL_NAMES.updateNotion, (args) => {
    const markdown = firstText(args, ['markdown', 'content', 'text']) ?? '';
    if (markdown.trim() === '') return { triggered: true, reason: 'empty', message: 'The document is empty; write the markdown to store.' };
    if (markdown.length > maxChars) {
      return {
        triggered: true,
        reason: 'too_large',
        details: { length: markdown.length },
        message: `The document has ${markdown.length} characters; the limit is ${maxChars}. Condense repeated material and try again.`,
      };
    }
    return screenDocumentText(markdown, options.knownSecrets ?? []);
  });
}
