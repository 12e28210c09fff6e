import { Agent, type Model } from '@openai/agents';
import { z } from 'zod';
import type { AgentContext } from '../../core/agent-context.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';

/** The prompt of the extractor's instructions (`prompts/idea-extractor.txt`). */
export const IDEA_EXTRACTOR_PROMPT = 'idea-extractor';

/** The extractor's agent name (its instructions' first line identifies it to the simulator). */
export const IDEA_EXTRACTOR_NAME = 'Idea Extractor';

const sideSchema = z.object({
  speakers: z.array(z.string()).describe('Speakers holding this position, by name'),
  position: z.string().describe('The position and its main argument, in one sentence'),
});

/** One structured pass over new messages: ideas, disagreements and open questions, each traced to messages. */
export const ideaExtractionSchema = z.object({
  ideas: z
    .array(
      z.object({
        existingIdea: z.string().describe('The ledger id (e.g. "I3") when this is an idea already in the ledger, else empty'),
        title: z.string().describe('The idea in at most 8 words'),
        summary: z.string().describe('The idea in one or two sentences'),
        proposer: z.string().describe('Who first proposed it, by speaker name'),
        builders: z.array(z.string()).describe('Who built on it or supported it in these messages'),
        objectors: z.array(z.string()).describe('Who objected to it in these messages'),
        messageIds: z.array(z.number().int()).describe('The #ids of the messages that propose, build on or object to it'),
      }),
    )
    .describe('Distinct ideas in the new messages, including reactions to ideas already in the ledger'),
  disagreements: z
    .array(
      z.object({
        topic: z.string().describe('What the disagreement is about'),
        sides: z.array(sideSchema).describe('Exactly two sides'),
        messageIds: z.array(z.number().int()),
      }),
    )
    .describe('Points where speakers disagreed in the new messages; empty when everyone agreed'),
  openQuestions: z.array(z.object({ question: z.string(), messageIds: z.array(z.number().int()) })).describe('Questions raised and left unanswered'),
});

/** The extractor's output. */
export type IdeaExtraction = z.infer<typeof ideaExtractionSchema>;

/** The extractor agent type. */
export type IdeaExtractorAgent = Agent<AgentContext, typeof ideaExtractionSchema>;

/** Builds the Idea Extractor: no tools, and an output type that forces the ledger's structure. */
export function createIdeaExtractorAgent(options: { model: Model; prompts: PromptLibrary }): IdeaExtractorAgent {
  return new Agent<AgentContext, typeof ideaExtractionSchema>({
    name: IDEA_EXTRACTOR_NAME,
    instructions: options.prompts.render(IDEA_EXTRACTOR_PROMPT, {}),
    model: options.model,
    modelSettings: { temperature: 0 },
    outputType: ideaExtractionSchema,
  });
}
