/** The console's view of a session's idea ledger: ideas, disagreements, open questions and the figures. */
import type { IdeasRepository } from '../../repositories/ideas-repository.ts';
import type { Session } from '../../core/domain.ts';
import { ledgerFigures, type LedgerFigures } from '../ideas/ledger-metrics.ts';
import type { Idea, LedgerNote, LedgerPass } from '../../core/idea-ledger.ts';

/** What the ideas panel shows (no embeddings: they are large and of no use in a browser). */
export interface IdeaPanelView {
  ideas: Omit<Idea, 'embedding'>[];
  disagreements: Omit<LedgerNote, 'embedding'>[];
  openQuestions: Omit<LedgerNote, 'embedding'>[];
  passes: LedgerPass[];
  figures: LedgerFigures;
}

/** Reads a session's ledger for the console. */
export async function ideaPanel(ideas: Pick<IdeasRepository, 'ledger'>, session: Session): Promise<IdeaPanelView> {
  const ledger = await ideas.ledger(session.id);
  const notes = ledger.notes.map(({ embedding: _embedding, ...note }) => note);
  return {
    ideas: ledger.ideas.map(({ embedding: _embedding, ...idea }) => idea),
    disagreements: notes.filter((note) => note.kind === 'disagreement'),
    openQuestions: notes.filter((note) => note.kind === 'open_question'),
    passes: ledger.passes,
    figures: ledgerFigures(ledger.ideas, ledger.passes, session.endedAt),
  };
}
