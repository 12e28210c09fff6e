/** The console's view of a session's critique round: the aggregate ranking, the ballots and who was left out. */
import type { CritiqueRound } from '../../core/critique.ts';
import type { CritiqueRepository } from '../../repositories/critique-repository.ts';
import { roundMessage } from '../critique/critique-markdown.ts';

/** What the critique panel shows (dates as ISO strings, and the room's message as markdown). */
export interface CritiquePanelView extends Omit<CritiqueRound, 'createdAt'> {
  createdAt: string;
  /** The aggregate ranking as posted in the room. */
  summary: string;
}

/** Reads a session's critique round for the console, or null when it had none. */
export async function critiquePanel(critiques: Pick<CritiqueRepository, 'find'>, sessionId: string): Promise<CritiquePanelView | null> {
  const round = await critiques.find(sessionId);
  return round ? { ...round, createdAt: round.createdAt.toISOString(), summary: roundMessage(round) } : null;
}
