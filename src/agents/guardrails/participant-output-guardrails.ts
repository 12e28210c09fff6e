import type { OutputGuardrail } from '@openai/agents';
import { AGENT_NAMES } from '../../core/agent-context.ts';
import { visibleAnswer } from '../../core/answer-text.ts';
import { findMaskedLinks } from './masked-links.ts';
import { scanForSecrets } from './secret-patterns.ts';
import { findImpersonatedSpeaker, findMentions } from './text-checks.ts';

/** Guardrail names on participants' answers (also the guardrail span names in the traces). */
export const PARTICIPANT_GUARDRAIL_NAMES = {
  notEmpty: 'participant_not_empty',
  noSecrets: 'participant_no_secrets',
  noImpersonation: 'participant_no_impersonation',
  noMassMentions: 'participant_no_mass_mentions',
  noMaskedLinks: 'participant_no_masked_links',
} as const;

/** A short note per guardrail for the room when an answer is withheld (the coordinator posts it). */
export const PARTICIPANT_GUARDRAIL_NOTES: Record<string, string> = {
  [PARTICIPANT_GUARDRAIL_NAMES.notEmpty]: 'the answer was empty',
  [PARTICIPANT_GUARDRAIL_NAMES.noSecrets]: 'the answer contained something that looks like a secret key',
  [PARTICIPANT_GUARDRAIL_NAMES.noImpersonation]: 'the answer spoke in the name of another participant',
  [PARTICIPANT_GUARDRAIL_NAMES.noMassMentions]: 'the answer tried to mention or ping people',
  [PARTICIPANT_GUARDRAIL_NAMES.noMaskedLinks]: 'the answer had a link whose text shows another address than where it leads',
};

/** The note for a tripped participant guardrail, by its name (a neutral line for an unknown name). */
export function participantGuardrailNote(guardrailName: string): string {
  return PARTICIPANT_GUARDRAIL_NOTES[guardrailName] ?? 'the answer did not pass a safety check';
}

// Context-free on purpose: the checks read only the answer, so they fit any participant agent.
type ParticipantGuardrail = OutputGuardrail<'text'>;

function tripped(reason: string, details: Record<string, unknown> = {}) {
  return { tripwireTriggered: true, outputInfo: { reason, ...details } };
}

const passed = { tripwireTriggered: false, outputInfo: { reason: 'ok' } };

/**
 * Output guardrails for participant agents, on what people would see of the answer (its thinking and its own
 * label aside; secrets anywhere in it): not empty, no secrets, no speaking as another speaker
 * (`rosterNames` plus the four role names), no mass or user mentions, no masked links. `outputInfo` never holds the text.
 * `selfName` is the participant's display name (defaults to the agent's name).
 */
export function participantOutputGuardrails(
  rosterNames: readonly string[],
  selfName?: string,
  options: { knownSecrets?: readonly string[] } = {},
): ParticipantGuardrail[] {
  const speakerNames = [...rosterNames, ...Object.values(AGENT_NAMES)];
  const author = (agent: { name: string }) => selfName ?? agent.name;
  const shown = (output: string, agent: { name: string }) => visibleAnswer(output, author(agent));
  return [
    {
      name: PARTICIPANT_GUARDRAIL_NAMES.notEmpty,
      execute: async ({ agentOutput, agent }) => (shown(agentOutput, agent).trim() === '' ? tripped('empty') : passed),
    },
    {
      name: PARTICIPANT_GUARDRAIL_NAMES.noSecrets,
      execute: async ({ agentOutput }) => {
        const scan = scanForSecrets(agentOutput, options.knownSecrets ?? []);
        return scan.count > 0 ? tripped('secret', { secretKinds: scan.kinds }) : passed;
      },
    },
    {
      name: PARTICIPANT_GUARDRAIL_NAMES.noImpersonation,
      execute: async ({ agentOutput, agent }) => {
        const impersonated = findImpersonatedSpeaker(shown(agentOutput, agent), author(agent), speakerNames);
        return impersonated ? tripped('impersonation', { impersonated }) : passed;
      },
    },
    {
      name: PARTICIPANT_GUARDRAIL_NAMES.noMassMentions,
      execute: async ({ agentOutput, agent }) => {
        const mentions = findMentions(shown(agentOutput, agent));
        return mentions.length > 0 ? tripped('mentions', { mentions }) : passed;
      },
    },
    {
      name: PARTICIPANT_GUARDRAIL_NAMES.noMaskedLinks,
      execute: async ({ agentOutput, agent }) => {
        const masked = findMaskedLinks(shown(agentOutput, agent));
        return masked.length > 0 ? tripped('masked_link', { count: masked.length }) : passed;
      },
    },
  ];
}
