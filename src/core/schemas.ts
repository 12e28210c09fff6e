import { z } from 'zod';

/** Session parameters as the Planner proposes them (bounds are enforced by a guardrail, not the schema). */
export const sessionParametersSchema = z.object({
  maxMessages: z.number().int().describe('Most messages in the discussion'),
  maxTokens: z.number().int().describe('Most tokens all models may use'),
  maxCostUsd: z.number().describe('Most US dollars all models may cost'),
  timeoutMinutes: z.number().int().describe('Minutes until the discussion is wrapped up'),
  maxContextPercent: z.number().int().describe('Percent of a context window before an immediate Scribe pass'),
});

/** The plan the Planner passes to `start_session` (needs a person's approval). */
export const sessionPlanSchema = z.object({
  expandedTopic: z.string().describe('The topic restated, expanded and clarified'),
  objectives: z.array(z.string()).describe('What the discussion should achieve, 2-5 items'),
  keyAreas: z.array(z.string()).describe('Areas to explore'),
  expectedFlow: z.array(z.string()).describe('The expected phases of the discussion, in order'),
  // Nullable and optional: strict tool schemas send null, and plans stored before presets existed have none.
  preset: z.string().nullable().optional().describe('The name of the listed preset this plan follows, or null when none fits'),
  parameters: sessionParametersSchema,
  estimate: z.object({
    durationMinutes: z.number().describe('Expected duration in minutes'),
    costUsd: z.number().describe('Expected cost in US dollars'),
    messages: z.number().int().describe('Expected number of messages'),
  }),
  critiqueRound: z
    .boolean()
    .default(false)
    .describe('True when the topic calls for a decision: before the wrap-up, each participant ranks the leading proposals anonymously'),
});

/** The Planner's final output when it needs answers before it can plan. */
export const plannerQuestionsSchema = z.object({
  questions: z.array(z.string()).describe('Clarifying questions for the person; empty if none are needed'),
});

/** The Moderator's verdict on a check, the opening, or a wrap-up assessment. */
export const moderationVerdictSchema = z.object({
  action: z.enum(['continue', 'redirect', 'invite', 'hold', 'end']).describe('What to do now'),
  drifting: z.boolean().describe('True when the recent discussion left the objectives'),
  objectivesMet: z.boolean().describe('True when every objective of the plan has been reached'),
  message: z.string().describe('What to post in the room (empty for continue without a message)'),
  target: z.string().describe('The participant addressed by invite/hold, or empty'),
  reason: z.string().describe('Why, in one sentence'),
  quality: z.number().describe('Quality of the discussion so far, 0 to 10'),
});

/** The TLDR's structured summary. */
export const tldrSchema = z.object({
  summary: z.string().describe('An executive summary of 2-3 paragraphs'),
  keyFindings: z
    .array(
      z.object({
        finding: z.string(),
        sources: z.array(z.string()).describe('The message references (e.g. "#12") or speakers the finding rests on'),
      }),
    )
    .describe('3 to 5 key findings'),
});

export type PlannerQuestions = z.infer<typeof plannerQuestionsSchema>;
export type ModerationVerdict = z.infer<typeof moderationVerdictSchema>;
export type TldrOutput = z.infer<typeof tldrSchema>;
