import { createHash } from 'node:crypto';
import { traceGuardrail } from './guardrail-span.ts';
import { scanForSecrets, type SecretKind } from './secret-patterns.ts';
import { asksToPingEveryone, asksToRevealInstructions } from './text-checks.ts';

/** Why a person's message was kept out of a session. */
export type HumanMessageBlockReason = 'oversized' | 'secret' | 'mass_mention' | 'instruction_extraction';

/** The input guardrail's answer for one human message. */
export type HumanMessageVerdict = { verdict: 'ok' } | { verdict: 'blocked'; reason: HumanMessageBlockReason; explanation: string; secretKinds?: SecretKind[] };

/** Options of the human-message screen. */
export interface ScreenHumanMessageOptions {
  /** Longest message accepted (`MAX_HUMAN_MESSAGE_CHARS`). */
  maxChars: number;
  /** This deployment's own keys and tokens, matched exactly in addition to the known key shapes. */
  knownSecrets?: readonly string[];
  /** Groups the guardrail's trace with the session's traces when the call is not already inside one. */
  sessionId?: string | null;
  /** What the text is: a message or a topic (every check), or a display name or command arguments (secrets only). */
  subject?: 'message' | 'display_name' | 'command_args';
}

/** The guardrail span name of the human-message screen, as it appears in the trace viewer. */
export const HUMAN_MESSAGE_GUARDRAIL_NAME = 'human_message_screen';

function describeSecretKinds(kinds: readonly SecretKind[]): string {
  return kinds.map((kind) => kind.replace(/_/g, ' ')).join(', ');
}

const SECRET_ONLY_EXPLANATIONS = {
  display_name: (kinds: string) =>
    `Your display name looks like it contains a secret (${kinds}), so nothing you sent was stored or shown to any model. ` +
    'Everyone who can see you here can read it: change your display name, and if it is a real key, revoke it now.',
  command_args: (kinds: string) =>
    `The command's arguments look like they contain a secret (${kinds}), so the command was not run, stored or shown to any model. ` +
    'If it is a real key, revoke it now.',
};

/** Display names and command arguments: only secrets (a name or a setting may legitimately say "token" or "everyone"). */
function decideSecretOnly(text: string, subject: keyof typeof SECRET_ONLY_EXPLANATIONS, options: ScreenHumanMessageOptions): HumanMessageVerdict {
  const secrets = scanForSecrets(text, options.knownSecrets ?? []);
  if (secrets.count === 0) return { verdict: 'ok' };
  return {
    verdict: 'blocked',
    reason: 'secret',
    secretKinds: secrets.kinds,
    explanation: SECRET_ONLY_EXPLANATIONS[subject](describeSecretKinds(secrets.kinds)),
  };
}

function decide(text: string, options: ScreenHumanMessageOptions): HumanMessageVerdict {
  if (options.subject && options.subject !== 'message') return decideSecretOnly(text, options.subject, options);
  const secrets = scanForSecrets(text, options.knownSecrets ?? []);
  if (secrets.count > 0) {
    return {
      verdict: 'blocked',
      reason: 'secret',
      secretKinds: secrets.kinds,
      explanation:
        `Your message looks like it contains a secret (${describeSecretKinds(secrets.kinds)}), so it was not posted to the ` +
        'session, stored, or shown to any model. If it is a real key, revoke it now and send your message again without it.',
    };
  }
  if (text.length > options.maxChars) {
    return {
      verdict: 'blocked',
      reason: 'oversized',
      explanation: `Your message has ${text.length} characters; the limit is ${options.maxChars}. Please split it or share the key part.`,
    };
  }
  if (asksToPingEveryone(text)) {
    return {
      verdict: 'blocked',
      reason: 'mass_mention',
      explanation: 'The AI participants never ping everyone (@everyone, @here or role mentions). Please rephrase without it.',
    };
  }
  if (asksToRevealInstructions(text)) {
    return {
      verdict: 'blocked',
      reason: 'instruction_extraction',
      explanation: 'The bots do not reveal their instructions, keys or configuration. Please keep to the topic of the session.',
    };
  }
  return { verdict: 'ok' };
}

/** The name of the trace that gathers a session's human-message checks. */
export const HUMAN_MESSAGES_TRACE_NAME = 'Human messages screened';

/** The one trace id of a session's human-message checks (stable, so each check adds a span to it). */
export function humanScreeningTraceId(sessionId: string): string {
  return `trace_${createHash('sha256').update(`human-screening:${sessionId}`).digest('hex').slice(0, 32)}`;
}

/**
 * The input guardrail on a person's message, run BEFORE the message is stored or shown to a model.
 * It runs inside a guardrail span that records only the reason and the kinds of secret, never the text.
 */
export async function screenHumanMessage(text: string, options: ScreenHumanMessageOptions): Promise<HumanMessageVerdict> {
  const outcome = await traceGuardrail(
    HUMAN_MESSAGE_GUARDRAIL_NAME,
    () => {
      const verdict = decide(text, options);
      if (verdict.verdict === 'ok') return { triggered: false, verdict };
      return {
        triggered: true,
        reason: verdict.reason,
        details: { subject: options.subject ?? 'message', length: text.length, ...(verdict.secretKinds ? { secretKinds: verdict.secretKinds } : {}) },
        verdict,
      };
    },
    // Every check of one session's human messages joins one trace ("Human messages screened"), so the session's
    // trace list is not one near-empty trace per message.
    {
      sessionId: options.sessionId ?? null,
      traceName: HUMAN_MESSAGES_TRACE_NAME,
      ...(options.sessionId ? { traceId: humanScreeningTraceId(options.sessionId) } : {}),
    },
  );
  return outcome.verdict;
}
