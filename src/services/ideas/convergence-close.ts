/**
 * The Moderator's side of the ledger: closing a converged room early (decided by the measurement, worded with
 * the model's confirmation, which cannot veto), and inviting dissent into a room that only agrees.
 */
import type { Logger } from 'pino';
import type { ModeratorAgent } from '../../agents/moderator/moderator-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { Session } from '../../core/domain.ts';
import { ideaRef } from './ledger-markdown.ts';
import { agreementRatio, isConverged, onlyAgrees, roundsWithoutNewIdea } from './ledger-metrics.ts';
import type { SessionLedger } from '../../core/idea-ledger.ts';
import { confirmConvergence } from './ledger-runs.ts';
import { roleMap, roundOf } from './session-roles.ts';

/** The reason a converged session ends with (the closing message shows it). */
export const CONVERGED_REASON = 'converged';

/** Reactions needed before a room counts as "only agreeing". */
export const MIN_REACTIONS_FOR_DISSENT = 4;

/** What the Moderator may do in the room. */
export interface LedgerRoom {
  postAsModerator(session: Session, content: string): Promise<void>;
  endSession(sessionId: string, reason: string): Promise<void>;
  /** Display names of the participants taking part now, in roster order. */
  participants(session: Session): string[];
  /** Lets `name` speak in the next round. */
  invite?(sessionId: string, name: string): void;
}

/** What the close and the dissent invitation need. */
export interface ModeratorLedgerDependencies {
  room: LedgerRoom;
  moderator: ModeratorAgent;
  prompts: PromptLibrary;
  logger: Logger;
  convergenceRounds: number;
  agreementThreshold: number;
  rotateEvery: number;
}

/** Branches worth a `!explore`: open questions first, then disagreements. */
export function branches(ledger: SessionLedger, limit = 3): string[] {
  const questions = ledger.notes.filter((note) => note.kind === 'open_question').map((note) => note.text);
  const disputes = ledger.notes.filter((note) => note.kind === 'disagreement').map((note) => note.text);
  const objected = ledger.ideas.filter((idea) => idea.objectors.length > 0).map((idea) => idea.title);
  return [...new Set([...questions, ...disputes, ...objected])].slice(0, limit);
}

/** The proposal posted when the room converged: the three ways on, with concrete branches. */
export function convergedProposal(rounds: number, ledger: SessionLedger, modelWords: string | null): string {
  const options = branches(ledger);
  const explore = options.length > 0 ? options.map((branch) => `\`!explore ${branch.replace(/`/g, "'")}\``).join(' or ') : '`!explore <branch>`';
  return [
    `**The room has converged**: the last ${rounds} rounds added no new idea and no new objection (${ledger.ideas.length} ideas in the ledger).`,
    ...(modelWords ? [modelWords] : []),
    'I am closing the session now. Your options:',
    '• **stop** here: nothing to do, the record and the summary follow;',
    `• **explore** a branch in a linked session: ${explore};`,
    '• **go on**: post the topic again (or a sharper version of it) in the brainstorm channel to start fresh rounds.',
  ].join('\n');
}

/** Closes the session when the ledger measured convergence; the model words it but cannot keep it open. */
export async function closeIfConverged(deps: ModeratorLedgerDependencies, session: Session, ledger: SessionLedger): Promise<boolean> {
  if (session.status !== 'active' || !isConverged(ledger.passes, deps.convergenceRounds)) return false;
  const rounds = roundsWithoutNewIdea(ledger.passes);
  const confirmation = await confirmConvergence(deps.moderator, deps.prompts, session.id, {
    topic: session.plan?.expandedTopic ?? session.topic,
    rounds,
    threshold: deps.convergenceRounds,
    ideaCount: ledger.ideas.length,
    ideas: ledger.ideas.map((idea) => `- ${ideaRef(idea)} ${idea.title}`).join('\n') || '(none)',
    branches:
      branches(ledger, 5)
        .map((branch) => `- ${branch}`)
        .join('\n') || '(none)',
  });
  deps.logger.info(
    { sessionId: session.id, rounds, confirmed: confirmation.agreed, err: confirmation.error ?? undefined },
    'idea ledger: the room converged; closing',
  );
  await deps.room.postAsModerator(session, convergedProposal(rounds, ledger, confirmation.agreed ? confirmation.message : null));
  await deps.room.endSession(session.id, `${CONVERGED_REASON}: no new idea or objection in the last ${rounds} rounds`);
  return true;
}

/** The invitation to dissent, addressed to the participant whose role is skeptic now. */
export function dissentInvitation(skeptic: string | null, ratio: number, ledger: SessionLedger): string {
  const strongest = [...ledger.ideas].sort((a, b) => b.builders.length - a.builders.length)[0];
  const target = strongest ? `${ideaRef(strongest)} "${strongest.title}"` : 'the leading idea';
  const who = skeptic ? `${skeptic}, as this round's skeptic: ` : '';
  return `Everyone has agreed so far (agreement ${Math.round(ratio * 100)}%). Agreement is welcome, but let us test it: ${who}what is the weakest point of ${target}? Everyone: what would make it fail, and what would you do differently?`;
}

/**
 * Invites dissent when the room only agrees; at most once per `convergenceRounds` passes, so the room has time
 * to answer. Returns the pass number it was posted at, or null.
 */
export async function inviteDissent(
  deps: ModeratorLedgerDependencies,
  session: Session,
  ledger: SessionLedger,
  lastInvitedPass: number | null,
): Promise<number | null> {
  const pass = ledger.passes.at(-1)?.number ?? 0;
  if (session.status !== 'active' || pass === 0) return null;
  if (lastInvitedPass !== null && pass - lastInvitedPass < Math.max(1, deps.convergenceRounds)) return null;
  if (!onlyAgrees(ledger.ideas, deps.agreementThreshold, MIN_REACTIONS_FOR_DISSENT)) return null;
  const names = deps.room.participants(session);
  const roles = roleMap(names, roundOf(session.messageCount, names.length), deps.rotateEvery);
  const skeptic = [...roles.entries()].find(([, role]) => role.name === 'skeptic')?.[0] ?? null;
  await deps.room.postAsModerator(session, dissentInvitation(skeptic, agreementRatio(ledger.ideas) ?? 1, ledger));
  if (skeptic) deps.room.invite?.(session.id, skeptic);
  return pass;
}
