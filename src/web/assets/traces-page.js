// Trace search: by text, agent, model, errors; results grouped by session, one trace per turn.
import { getJson } from './api.js';
import { h } from './dom.js';
import { formatCost, formatCount, formatDuration, formatTime } from './format.js';

const FIELDS = [
  ['text', 'Text'],
  ['agent', 'Agent'],
  ['model', 'Model'],
];

function searchForm(query) {
  const inputs = FIELDS.map(([name, label]) => h('label', {}, label, h('input', { name, id: `search-${name}`, value: query.get(name) ?? '' })));
  const errors = h(
    'label',
    { class: 'check' },
    h('input', { type: 'checkbox', name: 'errors', id: 'search-errors', checked: query.get('errors') === '1' }),
    'errors only',
  );
  const form = h('form', { class: 'card search', id: 'trace-search' }, inputs, errors, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (query.get('sessionId')) next.set('sessionId', query.get('sessionId'));
    for (const [name] of FIELDS) if (form.elements[name].value.trim()) next.set(name, form.elements[name].value.trim());
    if (form.elements.errors.checked) next.set('errors', '1');
    location.hash = `#/traces?${next}`;
  });
  return form;
}

function traceRow(trace) {
  return h(
    'tr',
    { 'data-trace-id': trace.id },
    h('td', {}, h('a', { href: `#/traces/${encodeURIComponent(trace.id)}` }, trace.name)),
    h('td', {}, formatTime(trace.startedAt)),
    h('td', { class: 'number' }, formatDuration(trace.durationMs)),
    h('td', { class: 'number' }, formatCount(trace.spanCount)),
    h('td', { class: 'number' }, formatCount(trace.inputTokens + trace.outputTokens)),
    h('td', { class: 'number' }, formatCost(trace.costUsd)),
    h('td', {}, trace.errorCount ? h('span', { class: 'badge error' }, `${trace.errorCount} error${trace.errorCount > 1 ? 's' : ''}`) : ''),
  );
}

function groupBySession(traces) {
  const groups = new Map();
  for (const trace of traces) {
    const key = trace.sessionId ?? '';
    if (!groups.has(key)) groups.set(key, { sessionId: trace.sessionId, topic: trace.sessionTopic, traces: [] });
    groups.get(key).traces.push(trace);
  }
  return [...groups.values()];
}

function group(entry) {
  const title = entry.sessionId ? h('a', { href: `#/sessions/${encodeURIComponent(entry.sessionId)}` }, entry.topic ?? entry.sessionId) : 'Outside any session';
  const head = h('tr', {}, ...['Turn', 'Started', 'Duration', 'Spans', 'Tokens', 'Cost', ''].map((text) => h('th', {}, text)));
  return h(
    'section',
    { class: 'card trace-group', 'data-session-id': entry.sessionId ?? '' },
    h('h3', {}, title),
    h('table', { class: 'traces' }, h('thead', {}, head), h('tbody', {}, entry.traces.map(traceRow))),
  );
}

/** Renders the trace search page. */
export async function renderTracesPage(main, context) {
  const query = context.query;
  const traces = await getJson(`/api/traces?${query}`);
  const results = traces.length ? groupBySession(traces).map(group) : h('p', { class: 'card muted', id: 'no-traces' }, 'No traces match.');
  main.replaceChildren(h('h2', {}, 'Traces'), searchForm(query), h('div', { id: 'trace-results' }, results));
  return null;
}
