import type { TldrOutput } from '../../core/schemas.ts';
import type { ChatMessage, SessionPlan } from '../../core/domain.ts';
import type { FocusRequest } from '../../core/service-ports.ts';
import type { DocumentLink } from './moderation-host.ts';
import { withoutFileAddresses } from '../../agents/scribe/shared-files.ts';
import { speakerLabel } from '../../agents/scribe/scribe-input.ts';
import { nextStepLines, type NextStep } from '../../core/next-steps.ts';

const MAX_MESSAGE_EXCERPT = 700;

/** Messages as the Moderator and the wrap-up read them: `#id [Speaker]: text` (`[Ana (person)]`), each cut to a readable length. */
export function formatMessages(messages: readonly ChatMessage[]): string {
  if (messages.length === 0) return '(none)';
  return messages
    .map((message) => {
      // As the Scribe's passes read them: people marked as such, files without their expiring addresses.
      const full = withoutFileAddresses(message.text);
      const text = full.length > MAX_MESSAGE_EXCERPT ? `${full.slice(0, MAX_MESSAGE_EXCERPT)}…` : full;
      return `#${message.number} [${speakerLabel(message.speaker)}]: ${text}`;
    })
    .join('\n');
}

/** The objectives as a bulleted list. */
export function formatObjectives(plan: SessionPlan): string {
  return plan.objectives.map((objective) => `- ${objective}`).join('\n');
}

/**
 * A civil redirect written without a model: used when the model's message is missing or was blocked. With what a
 * person asked to focus on, it turns the room to that.
 */
export function fallbackRedirect(plan: SessionPlan, focus: FocusRequest | null = null): string {
  const first = plan.objectives[0] ?? plan.expandedTopic;
  if (focus) {
    return [
      `${focus.by} would like us to focus on "${focus.text}". With what we set out to do in mind:`,
      formatObjectives(plan),
      `Where does "${focus.text}" take us on "${first}"?`,
    ].join('\n');
  }
  return [
    'Interesting thread, everyone — let us bring it back to what we set out to do:',
    formatObjectives(plan),
    `A good way back: how does what we just discussed help with "${first}"?`,
  ].join('\n');
}

/** An invitation for a quiet participant, written without a model. */
export function fallbackInvite(name: string, plan: SessionPlan): string {
  const objective = plan.objectives[0] ?? plan.expandedTopic;
  return `${name}, we have not heard much from you yet — what is your take on "${objective}"?`;
}

/** A request to a dominant participant to hold back, written without a model. */
export function fallbackHold(name: string): string {
  return `Thanks for all the input, ${name}. Let us hear from the others first before you add more.`;
}

/** What the closing message is made of (whatever of it exists). */
export interface ClosingParts {
  reason: string;
  plan: SessionPlan | null;
  quality: number | null;
  assessment: string | null;
  objectivesMet: boolean | null;
  tldr: TldrOutput | null;
  links: DocumentLink[];
  failedSteps: string[];
  /** The record's next steps, as the Scribe (or people, ticking them in Notion) left them. */
  nextSteps?: NextStep[];
}

function outcomeLines(parts: ClosingParts): string[] {
  const lines: string[] = [];
  if (parts.assessment) lines.push(parts.assessment.trim());
  else if (parts.plan) {
    const status = parts.objectivesMet === true ? 'met' : parts.objectivesMet === false ? 'worked on' : 'discussed';
    lines.push(...parts.plan.objectives.map((objective) => `- ${objective} (${status})`));
  }
  if (parts.quality !== null && !(parts.assessment ?? '').match(/quality/i)) lines.push(`Quality of the discussion: ${parts.quality}/10.`);
  return lines;
}

/** The closing message in the room: thanks, outcomes, key findings, document links. */
export function composeClosingMessage(parts: ClosingParts): string {
  return [closingGreeting(parts.reason), closingFacts(parts)].filter((section) => section !== '').join('\n\n');
}

/** The closing's first line: thanks and why the session ended (the Moderator may word it its own way). */
export function closingGreeting(reason: string): string {
  return `**Thank you all — this session is closed** (${reason}).`;
}

/** The closing's facts (outcomes, findings, next steps, documents): posted as they are under the Moderator's words. */
export function closingFacts(parts: ClosingParts): string {
  const sections: string[] = [];
  const outcomes = outcomeLines(parts);
  if (outcomes.length > 0) sections.push(`**Outcomes**\n${outcomes.join('\n')}`);
  if (parts.tldr && parts.tldr.keyFindings.length > 0) {
    const findings = parts.tldr.keyFindings.map((entry, index) => {
      const sources = entry.sources.length > 0 ? ` (${entry.sources.join(', ')})` : '';
      return `${index + 1}. ${entry.finding}${sources}`;
    });
    sections.push(`**Key findings**\n${findings.join('\n')}`);
  }
  if (parts.nextSteps && parts.nextSteps.length > 0) sections.push(`**Next steps**\n${nextStepLines(parts.nextSteps)}`);
  if (parts.links.length > 0)
    sections.push(
      `**Documents**\n${parts.links.map((link) => `- [${link.label}](${link.url})${link.file ? ` — markdown file: \`${link.file}\`` : ''}`).join('\n')}`,
    );
  if (parts.failedSteps.length > 0) sections.push(`_Some wrap-up steps did not finish (${parts.failedSteps.join(', ')}); the documents hold what was saved._`);
  return sections.join('\n\n');
}

/** Reads "Quality: 7/10" (or "quality 7 of 10") from an assessment text. */
export function parseQuality(text: string): number | null {
  const match = /quality\D{0,12}(\d+(?:\.\d+)?)\s*(?:\/|out of|of)\s*10/i.exec(text);
  if (!match?.[1]) return null;
  const value = Number(match[1]);
  return value >= 0 && value <= 10 ? value : null;
}
