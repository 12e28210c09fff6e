// The critique round of a session: the aggregate (Borda) ranking of the leading proposals, the weakest
// assumptions each reviewer named, and who was left out.
import { h } from './dom.js';

const points = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function standingItem(round, standing) {
  const proposal = round.proposals.find((entry) => entry.label === standing.label);
  const assumptions = round.ballots.flatMap((ballot) =>
    ballot.weakestAssumptions.filter((entry) => entry.label === standing.label).map((entry) => h('li', {}, `${ballot.participant}: ${entry.assumption}`)),
  );
  return h(
    'li',
    { 'data-proposal': standing.label, value: String(standing.place) },
    h('strong', {}, `Proposal ${standing.label}`),
    proposal ? ` — I${proposal.ideaNumber} ${proposal.title} (proposed by ${proposal.proposer || 'unknown'})` : '',
    `: ${points(standing.points)} points, ${standing.firstPlaces} first place${standing.firstPlaces === 1 ? '' : 's'}`,
    assumptions.length ? h('ul', { class: 'muted' }, assumptions) : null,
  );
}

/** The critique panel, or nothing while the session has no critique round. */
export function critiquePanel(round) {
  if (!round) return null;
  const body = round.skippedReason
    ? h('p', { class: 'muted' }, `Skipped: ${round.skippedReason}.`)
    : round.standings.length
      ? h(
          'ol',
          { class: 'critique-ranking' },
          round.standings.map((standing) => standingItem(round, standing)),
        )
      : h('p', { class: 'muted' }, 'No critique could be read, so there is no ranking.');
  const failures = round.failures.length
    ? h('p', { class: 'muted' }, `Not counted: ${round.failures.map((failure) => `${failure.participant} (${failure.reason})`).join('; ')}.`)
    : null;
  return h(
    'section',
    { class: 'card', id: 'critique' },
    h('h3', {}, 'Critique round'),
    // A skipped round counted nothing: its reason is all there is to say.
    round.skippedReason
      ? null
      : h('p', { class: 'muted' }, `Borda count over ${round.ballots.length} anonymous critique${round.ballots.length === 1 ? '' : 's'}.`),
    body,
    failures,
  );
}
