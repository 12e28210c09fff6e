/** What a turn runner is built from, and what the coordinator asks of it for one participant's turn. */
import type { Runner } from '@openai/agents';
import type { Logger } from 'pino';
import type { AgentDirectory } from '../../agents/agent-directory.ts';
import type { RunUsage } from '../../agents/models/usage.ts';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { ContextManager, RecentHistory } from '../context/context-manager.ts';
import type { TokenCounter } from '../context/token-counter.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { ChatMessage, Session } from '../../core/domain.ts';
import type { LimitsService } from '../limits/limits-service.ts';
import type { ToolPorts } from '../../core/ports.ts';
import type { CostResolver } from '../../core/cost.ts';
import type { TurnControl } from './turn-control.ts';

/** What the turn runner needs. */
export interface TurnRunnerOptions {
  runner: Runner;
  agents: AgentDirectory;
  delivery: DeliveryService;
  context: ContextManager;
  tokens: TokenCounter;
  limits: LimitsService;
  toolPorts: (session: Session) => ToolPorts;
  logger: Logger;
  typing: (session: Session) => Promise<void>;
  /** Prices answers whose endpoint sends no cost (absent: only the provider's cost counts). */
  prices?: CostResolver;
  /** Which participants are shown the images people share (absent: none is). */
  images?: ImagePolicy;
  /** Counts toward a session what model calls cost when no stored message carries it (absent: not counted). */
  spend?: (sessionId: string, usage: RunUsage) => Promise<void>;
}

/** Decides which participants' models are shown images, and hears when one refused them. */
export interface ImagePolicy {
  accepts(participant: ParticipantConfig): Promise<boolean>;
  refused(participant: ParticipantConfig): void;
}

/** One participant's turn, as the coordinator asks for it. */
export interface TurnRequest {
  session: Session;
  participant: ParticipantConfig;
  /** Everyone seated, so a participant's instructions can name the others. */
  roster: ParticipantConfig[];
  /** The messages it answers (its reply references). */
  answering: ChatMessage[];
  control: TurnControl;
  /** The round's history, read once for all its speakers (absent: the turn reads its own). */
  history?: RecentHistory;
}
