/** The guardrails of Brainstorm: human input, participant output, Moderator output, tools. */
export {
  screenHumanMessage,
  HUMAN_MESSAGE_GUARDRAIL_NAME,
  type HumanMessageVerdict,
  type HumanMessageBlockReason,
  type ScreenHumanMessageOptions,
} from './screen-human-message.ts';
export { participantOutputGuardrails, participantGuardrailNote, PARTICIPANT_GUARDRAIL_NAMES } from './participant-output-guardrails.ts';
export {
  plannerBoundsGuardrail,
  postToDiscordGuardrail,
  updateNotionGuardrail,
  findOutOfBoundsParameters,
  planParameterBounds,
  TOOL_GUARDRAIL_NAMES,
  type BrainstormToolGuardrail,
} from './tool-guardrails.ts';
export { moderatorOutputGuardrail, MODERATOR_GUARDRAIL_NAME } from './moderator-output-guardrail.ts';
export { scanForSecrets, redactPastedSecrets, type SecretKind, type SecretScan } from './secret-patterns.ts';
export { screenPreview, HELD_PREVIEW_TEXT } from './screen-preview.ts';
export { findMaskedLinks } from './masked-links.ts';
export { traceGuardrail, type GuardrailDecision } from './guardrail-span.ts';
export { findMentions, isUncivil, findImpersonatedSpeaker, asksToPingEveryone, asksToRevealInstructions } from './text-checks.ts';
