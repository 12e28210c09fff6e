// The idea ledger of a session: ideas with who proposed, built on and objected, disagreements, open questions,
// and the figures (ideas per 100 messages, duplicate ratio, agreement ratio, rounds without a new idea).
import { h } from './dom.js';

const percent = (value) => (value === null || value === undefined ? 'n/a' : `${Math.round(value * 100)}%`);
const names = (list) => (list.length ? list.join(', ') : 'nobody');
// The ledger keeps message ids; people read each message's number in its session ("#12"), so links show that.
const linker = (numbers) => (sessionId, ids) =>
  ids.map((id) => {
    const number = numbers.get(id);
    const href = `#/sessions/${encodeURIComponent(sessionId)}?${number ? `n=${number}` : `message=${id}`}`;
    return h('a', { href, 'data-message': String(id) }, `#${number ?? id}`);
  });

function joined(nodes) {
  return nodes.flatMap((node, index) => (index === 0 ? [node] : [', ', node]));
}

function figures(ledger) {
  const f = ledger.figures;
  const rows = [
    ['Ideas', String(f.ideas)],
    ['Ideas per 100 messages', f.ideasPer100Messages.toFixed(1)],
    ['Duplicate idea ratio', percent(f.duplicateIdeaRatio)],
    ['Agreement ratio', percent(f.agreementRatio)],
    ['Rounds without a new idea', String(f.roundsWithoutNewIdea)],
  ];
  if (f.roundsWithoutNewIdeaAtClose !== null) rows.push(['… at close', String(f.roundsWithoutNewIdeaAtClose)]);
  return h(
    'dl',
    { class: 'ledger-figures', id: 'ledger-figures' },
    rows.flatMap(([label, value]) => [h('dt', {}, label), h('dd', { 'data-figure': label }, value)]),
  );
}

function ideaItem(idea, refs) {
  const objected = idea.objectors.length ? `; objected: ${names(idea.objectors)}` : '';
  return h(
    'li',
    { 'data-idea': `I${idea.number}` },
    h('strong', {}, `I${idea.number} ${idea.title}`),
    ` — ${idea.proposer || 'unknown'}; built on: ${names(idea.builders)}${objected} (`,
    ...joined(refs(idea.sessionId, idea.messageIds)),
    ')',
  );
}

function disagreementItem(note, refs) {
  const sides = note.sides.map((side) => `${side.speakers.join(', ')}: ${side.position}`).join(' versus ');
  return h('li', {}, h('strong', {}, note.text), ` — ${sides} (`, ...joined(refs(note.sessionId, note.messageIds)), ')');
}

/** The ideas panel, or nothing while the session has no ledger; `numbers` maps message ids to their numbers. */
export function ideasPanel(ledger, numbers = new Map()) {
  if (!ledger) return null;
  const refs = linker(numbers);
  const ideas = ledger.ideas.length
    ? h(
        'ol',
        { class: 'ideas' },
        ledger.ideas.map((idea) => ideaItem(idea, refs)),
      )
    : h('p', { class: 'muted' }, 'No ideas yet: the ledger is updated once per Scribe interval.');
  const disagreements = ledger.disagreements.length
    ? h(
        'ul',
        {},
        ledger.disagreements.map((note) => disagreementItem(note, refs)),
      )
    : h('p', { class: 'muted' }, ledger.ideas.length ? 'The room agreed so far.' : 'None yet.');
  const questions = ledger.openQuestions.length
    ? h(
        'ul',
        {},
        ledger.openQuestions.map((note) => h('li', {}, `${note.text} (`, ...joined(refs(note.sessionId, note.messageIds)), ')')),
      )
    : h('p', { class: 'muted' }, 'None yet.');
  return h(
    'section',
    { class: 'card', id: 'ideas' },
    h('h3', {}, 'Idea ledger'),
    figures(ledger),
    ideas,
    h('h4', {}, 'Where the room disagreed'),
    disagreements,
    h('h4', {}, 'Open questions'),
    questions,
  );
}
