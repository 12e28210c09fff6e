// One trace (one turn): totals, per-participant usage, the waterfall, and the chosen span's details.
import { getJson } from './api.js';
import { fill, h, safeLink } from './dom.js';
import { formatCost, formatCostWithSource, formatCount, formatDuration, formatTime, formatTokens, plural } from './format.js';
import { renderWaterfall, selectSpan } from './waterfall.js';

/** Why a span was cut short, in words (the span's `cut`). */
const CUT_REASONS = {
  stopped: 'the session was stopped (!stop, or its end); what was written is kept, marked interrupted.',
  preempted: 'a person spoke first; the round started again to answer them.',
  handed_over:
    'the bot shut down or handed the session to another process; the unfinished answer was taken out of the room, and the participant answered again where the session resumed.',
  process_stopped:
    'the process running it stopped before it ended (killed, crashed or its machine went away); the session went on where it was once another process, or the restarted one, took it over.',
};

function json(value) {
  return h('pre', { class: 'json' }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
  return JSON.stringify(content, null, 2);
}

function messages(value) {
  if (!Array.isArray(value) || !value.every((entry) => entry && typeof entry === 'object' && 'role' in entry))
    return value === null || value === undefined ? h('p', { class: 'muted' }, '–') : json(value);
  return h(
    'ol',
    { class: 'span-messages' },
    value.map((entry) =>
      h('li', {}, h('span', { class: `role role-${entry.role}` }, entry.role), h('pre', {}, contentText(entry.content ?? entry.tool_calls ?? ''))),
    ),
  );
}

function fact(label, value) {
  return [h('dt', {}, label), h('dd', {}, value)];
}

function spanDetail(span) {
  const facts = [fact('Type', span.kind), fact('Agent', span.agentName ?? '–'), fact('Duration', formatDuration(span.durationMs))];
  if (span.model) facts.push(fact('Model', span.model));
  if (span.inputTokens || span.outputTokens)
    facts.push(
      fact('Tokens', formatTokens(span.inputTokens, span.outputTokens)),
      fact('Cost', formatCostWithSource(span.costUsd, span.costSource, span.model)),
    );
  if (span.handoff) facts.push(fact('Handoff', `${span.handoff.from ?? '?'} → ${span.handoff.to ?? '?'}`));
  if (span.guardrail) facts.push(fact('Guardrail', `${span.guardrail.name}: ${span.guardrail.triggered ? 'TRIPPED' : 'passed'}`));
  const links = span.message
    ? h(
        'p',
        { class: 'span-links' },
        h(
          'a',
          { id: 'span-message-link', href: `#/sessions/${encodeURIComponent(span.message.sessionId)}?message=${span.message.id}` },
          `Open ${span.message.speakerName}'s message`,
        ),
        span.message.externalUrl && !span.message.externalUrl.includes('/#/rooms/') ? [' · ', safeLink(span.message.externalUrl, 'open in Discord')] : null,
      )
    : null;
  return [
    h('h3', {}, span.name),
    h('dl', { class: 'facts' }, facts),
    links,
    span.error
      ? h('div', { class: 'span-error', role: 'alert' }, h('strong', {}, 'Error: '), span.error.message, span.error.data ? json(span.error.data) : null)
      : null,
    span.cut ? h('p', { class: 'span-cut muted' }, h('strong', {}, 'Cut short: '), CUT_REASONS[span.cut] ?? span.cut) : null,
    h('div', { class: 'span-payload', id: 'span-payload' }, span.hasPayload ? h('p', { class: 'muted' }, 'Loading input and output…') : payload(span)),
  ];
}

function payload(span) {
  return [
    h('h4', {}, 'Input'),
    messages(span.input),
    h('h4', {}, 'Output'),
    messages(span.output),
    h('details', {}, h('summary', {}, 'Raw span data'), json(span.data)),
  ];
}

/** Shows a span: its facts at once, its input and output when they arrive (they can be large). */
function showSpan(panel, traceId, span) {
  fill(panel, spanDetail(span));
  panel.dataset.spanId = span.id;
  getJson(`/api/traces/${encodeURIComponent(traceId)}/spans/${encodeURIComponent(span.id)}`)
    .then((full) => {
      const target = panel.querySelector('#span-payload');
      if (panel.dataset.spanId === span.id && target) fill(target, payload(full));
    })
    .catch((error) => {
      const target = panel.querySelector('#span-payload');
      if (panel.dataset.spanId === span.id && target) fill(target, h('p', { class: 'error' }, error.message));
    });
}

function participantsTable(participants) {
  if (participants.length === 0) return null;
  const head = h('tr', {}, ...['Participant', 'Generations', 'Tokens in', 'Tokens out', 'Cost'].map((text) => h('th', {}, text)));
  const rows = participants.map((entry) =>
    h(
      'tr',
      {},
      h('td', {}, entry.name),
      h('td', { class: 'number' }, formatCount(entry.generations)),
      h('td', { class: 'number' }, formatCount(entry.inputTokens)),
      h('td', { class: 'number' }, formatCount(entry.outputTokens)),
      h('td', { class: 'number' }, formatCost(entry.costUsd)),
    ),
  );
  return h('table', { class: 'participants', id: 'participant-totals' }, h('thead', {}, head), h('tbody', {}, rows));
}

function summary(detail) {
  const { trace, totals } = detail;
  const session = trace.sessionId ? h('a', { href: `#/sessions/${encodeURIComponent(trace.sessionId)}`, id: 'trace-session-link' }, 'session') : 'no session';
  return h(
    'section',
    { class: 'card trace-summary' },
    h('h2', { id: 'trace-name' }, trace.name),
    h(
      'p',
      { class: 'muted' },
      formatTime(trace.startedAt),
      ' · ',
      formatDuration(trace.durationMs),
      ' · ',
      session,
      ' · ',
      h('a', { href: `/api/traces/${encodeURIComponent(trace.id)}/export`, download: `trace-${trace.id}.json`, id: 'export-trace' }, 'export JSON'),
    ),
    h(
      'p',
      { id: 'trace-totals' },
      `${plural(totals.spanCount, 'span')} · ${formatTokens(totals.inputTokens, totals.outputTokens)} tokens · ${formatCost(totals.costUsd)}`,
      totals.errorCount ? h('span', { class: 'badge error' }, plural(totals.errorCount, 'error')) : null,
      totals.cutCount
        ? h('span', { class: 'badge', title: 'spans cut short (by a person, or by a process that stopped): not errors' }, `${totals.cutCount} cut short`)
        : null,
      totals.guardrailTrips ? h('span', { class: 'badge error' }, plural(totals.guardrailTrips, 'guardrail trip')) : null,
    ),
    participantsTable(detail.participants),
  );
}

/** Renders a trace page; `?message=<id>` opens the span that produced that message. */
export async function renderTracePage(main, traceId, context) {
  const detail = await getJson(`/api/traces/${encodeURIComponent(traceId)}`);
  performance.mark('trace-loaded');
  const waterfall = h('div', { class: 'waterfall', id: 'waterfall' });
  const panel = h(
    'aside',
    { class: 'card span-detail', id: 'span-detail' },
    h('p', { class: 'muted' }, 'Choose a span to see its input, output, model, tokens, cost and error.'),
  );
  main.replaceChildren(summary(detail), h('div', { class: 'trace-body' }, h('section', { class: 'card waterfall-card' }, waterfall), panel));
  renderWaterfall(waterfall, detail, (span) => showSpan(panel, traceId, span));
  const messageId = Number(context.query.get('message'));
  const producers = messageId ? detail.spans.filter((span) => span.message?.id === messageId) : [];
  // The generation wrote the message; a delivery span only carried it.
  const linked = producers.find((span) => span.kind === 'generation') ?? producers[0];
  if (linked) selectSpan(waterfall, linked.id);
  return null;
}
