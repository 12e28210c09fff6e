import type { ToolPorts } from './ports.ts';

/** The context every agent run carries (SDK `RunContext<AgentContext>`): the ports its tools may use. */
export interface AgentContext {
  ports: ToolPorts;
  /** Session the run belongs to (also on `ports.sessionId`), for tracing and guardrails. */
  sessionId: string;
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
