/**
 * The critique round: at the close of a session whose plan asks for it, each participant ranks the leading
 * proposals of the idea ledger with their authors hidden and names the weakest assumption; the room gets the
 * aggregate (Borda) ranking, and the record, the TLDR and the console show it.
 */
import { run, withTrace, type Model } from '@openai/agents';
import type { Logger } from 'pino';
import { createCritiqueAgent, critiqueErrorHandlers } from '../../agents/critique/critique-agent.ts';
import type { PromptLibrary } from '../../agents/prompts/prompt-library.ts';
import type { ParticipantConfig } from '../../config/roster.ts';
import type { Clock } from '../../core/clock.ts';
import type { CritiqueBallot, CritiqueFailure, CritiqueProposal, CritiqueRound } from '../../core/critique.ts';
import type { Session, Speaker } from '../../core/domain.ts';
import type { IdeasRepository } from '../../repositories/ideas-repository.ts';
import type { MessagesRepository } from '../../repositories/messages-repository.ts';
import type { CritiqueRepository } from '../../repositories/critique-repository.ts';
import { passContext } from '../documentation/agent-runs.ts';
import { anonymiseProposals, leadingIdeas, reviewList } from './anonymise.ts';
import { bordaCount, normaliseBallot } from './borda.ts';
import { ballotMessage, roundMessage, withCritiqueSection, wrapUpNote } from './critique-markdown.ts';

/** What the critique round needs. */
export interface CritiqueDependencies {
  repository: Pick<CritiqueRepository, 'find' | 'save'>;
  ideas: Pick<IdeasRepository, 'ledger'>;
  messages: Pick<MessagesRepository, 'listForSession'>;
  models: { participant(id: string): Model };
  prompts: PromptLibrary;
  /** The participants taking part in the session now (the reviewers). */
  participants: (session: Session) => ParticipantConfig[];
  /** Every participant's name, taking part or not (scrubbed from the proposals). */
  rosterNames: () => string[];
  /** Posts (stores, then delivers) a message in the room; `traceId` links it to the trace it came from. */
  post: (session: Session, speaker: Speaker, text: string, traceId: string | null) => Promise<void>;
  clock: Clock;
  logger: Logger;
}

const MODERATOR: Speaker = { kind: 'moderator', name: 'Moderator' };
const MIN_PROPOSALS = 2;

function speakerOf(participant: ParticipantConfig): Speaker {
  return { kind: 'participant', name: participant.name, id: participant.id, ...(participant.avatarUrl ? { avatarUrl: participant.avatarUrl } : {}) };
}

/** The critique round service. */
export class CritiqueService {
  constructor(private readonly deps: CritiqueDependencies) {}

  /**
   * Runs the round before the wrap-up when the plan asks for it, once per session (a retried wrap-up finds it
   * stored). A stopped session skips it: `!stop` means stop now. Never throws: the wrap-up always follows. A round
   * returned is new: the documents stored before it need storing again with its section.
   */
  async beforeWrapUp(session: Session): Promise<CritiqueRound | null> {
    if (session.plan?.critiqueRound !== true) return null;
    try {
      if (await this.deps.repository.find(session.id)) return null;
      const { round, traceId } = await this.roundFor(session);
      if (!(await this.deps.repository.save(round))) return null;
      await this.announce(session, round, traceId);
      return round;
    } catch (error) {
      this.deps.logger.warn(
        { sessionId: session.id, err: error instanceof Error ? error.message : String(error) },
        'critique round failed; wrapping up without it',
      );
      return null;
    }
  }

  /** The session's round, or null. */
  find(sessionId: string): Promise<CritiqueRound | null> {
    return this.deps.repository.find(sessionId);
  }

  /** A record or TLDR with the round's section (re)placed at its end; unchanged without a round. */
  async decorate(sessionId: string, markdown: string): Promise<string> {
    const round = await this.deps.repository.find(sessionId);
    return round ? withCritiqueSection(markdown, round) : markdown;
  }

  /** What the wrap-up's input says about the round (so the final record and the TLDR read it), or null. */
  async wrapUpNote(sessionId: string): Promise<string | null> {
    const round = await this.deps.repository.find(sessionId);
    return round ? wrapUpNote(round) || null : null;
  }

  /** The round, with the trace its critiques ran in (null when it was skipped before any ran). */
  private async roundFor(session: Session): Promise<{ round: CritiqueRound; traceId: string | null }> {
    const base = { sessionId: session.id, createdAt: this.deps.clock.now(), ballots: [], failures: [], standings: [] };
    const skipped = (proposals: CritiqueProposal[], skippedReason: string) => ({ round: { ...base, proposals, skippedReason }, traceId: null });
    if (session.status === 'stopped') return skipped([], 'the session was stopped');
    const ledger = await this.deps.ideas.ledger(session.id);
    const people = (await this.deps.messages.listForSession(session.id))
      .filter((message) => message.speaker.kind === 'human')
      .map((message) => message.speaker.name);
    const proposals = anonymiseProposals(leadingIdeas(ledger.ideas), [...this.deps.rosterNames(), ...people]);
    if (proposals.length < MIN_PROPOSALS) return skipped(proposals, 'the idea ledger holds fewer than two proposals');
    const reviewers = this.deps.participants(session);
    if (reviewers.length === 0) return skipped(proposals, 'no participant is taking part');
    let traceId: string | null = null;
    const answers = await withTrace(
      'Critique round',
      (trace) => {
        traceId = trace.traceId;
        return Promise.all(reviewers.map((participant) => this.ballot(session, participant, proposals)));
      },
      { groupId: session.id, metadata: { sessionId: session.id, kind: 'critique' } },
    );
    const ballots = answers.flatMap((answer) => ('ranking' in answer ? [answer] : []));
    const failures = answers.flatMap((answer) => ('ranking' in answer ? [] : [answer]));
    const labels = proposals.map((proposal) => proposal.label);
    return { round: { ...base, proposals, ballots, failures, standings: ballots.length > 0 ? bordaCount(ballots, labels) : [], skippedReason: null }, traceId };
  }

  /** One participant's critique; a model that fails or answers no usable ranking is left out, with the reason. */
  private async ballot(session: Session, participant: ParticipantConfig, proposals: CritiqueProposal[]): Promise<CritiqueBallot | CritiqueFailure> {
    const labels = proposals.map((proposal) => proposal.label);
    const agent = createCritiqueAgent({
      participant,
      model: this.deps.models.participant(participant.id),
      prompts: this.deps.prompts,
      topic: session.topic,
      plan: session.plan,
    });
    const input = `The leading proposals (labels ${labels.join(', ')}):\n\n${reviewList(proposals)}\n\nRank them now.`;
    try {
      const result = await run(agent, input, { context: passContext(session.id), maxTurns: 2, errorHandlers: critiqueErrorHandlers() });
      const output = result.finalOutput;
      const ballot = output ? normaliseBallot(participant.name, output, labels) : null;
      return ballot ?? { participant: participant.name, reason: 'its answer ranked none of the proposals' };
    } catch (error) {
      this.deps.logger.warn(
        { sessionId: session.id, participant: participant.name, err: error instanceof Error ? error.message : String(error) },
        'critique failed',
      );
      return { participant: participant.name, reason: 'no readable answer' };
    }
  }

  /** Each critique as its author's short message, then the aggregate ranking as the Moderator's. */
  private async announce(session: Session, round: CritiqueRound, traceId: string | null): Promise<void> {
    // Stop means stop: after `!stop` nothing but the closing is posted.
    if (session.status === 'stopped') return;
    const reviewers = new Map(this.deps.participants(session).map((participant) => [participant.name, participant]));
    for (const ballot of round.ballots) {
      const participant = reviewers.get(ballot.participant);
      await this.deps.post(session, participant ? speakerOf(participant) : { kind: 'participant', name: ballot.participant }, ballotMessage(ballot), traceId);
    }
    await this.deps.post(session, MODERATOR, roundMessage(round), traceId);
  }
}
