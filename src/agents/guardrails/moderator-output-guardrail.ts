import type { OutputGuardrail } from '@openai/agents';
import type { AgentContext } from '../../core/agent-context.ts';
import type { moderationVerdictSchema } from '../../core/schemas.ts';
import { scanForSecrets } from './secret-patterns.ts';
import { findMentions, isUncivil } from './text-checks.ts';

/** The guardrail span name of the Moderator's output check. */
export const MODERATOR_GUARDRAIL_NAME = 'moderator_message_civil_no_mentions';

/** Output guardrail on the Moderator: its message is civil, mentions nobody and carries no secret. */
export function moderatorOutputGuardrail(): OutputGuardrail<typeof moderationVerdictSchema, AgentContext> {
  return {
    name: MODERATOR_GUARDRAIL_NAME,
    execute: async ({ agentOutput }) => {
      const message = agentOutput.message;
      const mentions = findMentions(message);
      if (mentions.length > 0) return { tripwireTriggered: true, outputInfo: { reason: 'mentions', mentions } };
      if (isUncivil(message)) return { tripwireTriggered: true, outputInfo: { reason: 'uncivil' } };
      if (scanForSecrets(message).count > 0) return { tripwireTriggered: true, outputInfo: { reason: 'secret' } };
      return { tripwireTriggered: false, outputInfo: { reason: 'ok' } };
    },
  };
}
