/** The demo brain's answer in a critique round: a ranking of the proposals it was shown, varied by reviewer. */
import { messageText, type ChatCompletionRequest } from './chat-types.ts';

/** The labels of the proposals in a critique request ("Proposal A: …" lines). */
function labelsOf(body: ChatCompletionRequest): string[] {
  const text = body.messages
    .filter((message) => message.role === 'user')
    .map(messageText)
    .join('\n');
  return [...text.matchAll(/^Proposal ([A-Z]+):/gm)].map((match) => match[1] ?? '').filter(Boolean);
}

/** A critique that follows the prompt: every label once (rotated by the reviewer's name), a weakness each, a reason. */
export function demoCritique(reviewer: string, body: ChatCompletionRequest) {
  const labels = labelsOf(body);
  const shift = labels.length > 0 ? reviewer.length % labels.length : 0;
  const ranking = [...labels.slice(shift), ...labels.slice(0, shift)];
  const first = ranking[0] ?? 'A';
  return {
    ranking,
    weakestAssumptions: ranking.map((label) => ({
      proposal: label,
      assumption: `That the team has the time and people to carry Proposal ${label} through. (simulated)`,
    })),
    reason: `Proposal ${first} is the most reversible first step. (simulated)`,
  };
}
