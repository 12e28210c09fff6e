import type { ChatMessage } from './domain.ts';
import type { ToolPorts } from './ports.ts';

/** The context every agent run carries (SDK `RunContext<AgentContext>`): the ports its tools may use. */
export interface AgentContext {
  ports: ToolPorts;
  /** Session the run belongs to (also on `ports.sessionId`), for tracing and guardrails. */
  sessionId: string;
  /** What a document written in this run must cover (the Scribe's and TLDR's guardrails check it). */
  documentFacts?: DocumentFacts;
}

/** The facts a session document is checked against: who spoke, and which message numbers exist. */
export interface DocumentFacts {
  speakers: string[];
  messageNumbers: number[];
}

/** The four roles; participants are looked up by roster id. */
export type RoleName = 'planner' | 'moderator' | 'scribe' | 'tldr';

/** Agent names, fixed: a stored RunState is restored against agents with the same names. */
export const AGENT_NAMES = {
  planner: 'Planner',
  moderator: 'Moderator',
  scribe: 'Scribe',
  tldr: 'TLDR',
} as const satisfies Record<RoleName, string>;

/** What a session's documents must cover: every voice that spoke (people and participants), and the message numbers that exist. */
export function documentFacts(messages: readonly ChatMessage[]): DocumentFacts {
  const voices = messages.filter((message) => message.speaker.kind === 'participant' || message.speaker.kind === 'human');
  return { speakers: [...new Set(voices.map((message) => message.speaker.name))], messageNumbers: messages.map((message) => message.number) };
}
