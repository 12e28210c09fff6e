// The sessions list and, with the local channel, the form that starts a session.
import { getJson, openEvents, postJson } from './api.js';
import { coalesced } from './coalesced.js';
import { fill, h, morphChildren } from './dom.js';
import { formatCost, formatCount, formatTime } from './format.js';
import { personName } from './person.js';
import { searchBox } from './search.js';

function startForm() {
  // No maxlength: a browser cuts a longer paste silently. The server says what is too long, and the text stays here.
  const topic = h('textarea', {
    id: 'topic',
    name: 'topic',
    rows: 3,
    required: true,
    placeholder: 'What should the models brainstorm about?',
  });
  const reply = h('p', { class: 'reply', role: 'status' });
  const button = h('button', { type: 'submit', id: 'start-session' }, 'Start brainstorm');
  const form = h(
    'form',
    { class: 'card start', id: 'start-form' },
    h('h2', {}, 'Start a session in the local channel'),
    h('label', { for: 'topic' }, 'Topic'),
    topic,
    h('div', { class: 'row' }, button, h('span', { class: 'muted hint' }, 'Enter starts it · Shift+Enter for a new line')),
    reply,
  );
  topic.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    reply.textContent = 'Opening a room…';
    try {
      const answer = await postJson('/api/local/sessions', { topic: topic.value, name: personName() });
      if (answer.roomId) location.hash = `#/rooms/${encodeURIComponent(answer.roomId)}`;
      else reply.textContent = answer.reply?.content ?? 'No session was started.';
    } catch (error) {
      reply.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function sessionRow(session) {
  return h(
    'tr',
    { 'data-session-id': session.id, 'data-key': session.id },
    h('td', {}, h('a', { href: `#/sessions/${encodeURIComponent(session.id)}` }, session.topic)),
    h('td', {}, h('span', { class: `status status-${session.status}` }, session.status.replace('_', ' '))),
    h('td', {}, session.participants.join(', ') || '–'),
    h('td', { class: 'number' }, formatCount(session.messageCount)),
    h('td', { class: 'number' }, formatCount(session.totalTokens)),
    h('td', { class: 'number' }, formatCost(session.totalCostUsd)),
    h('td', {}, formatTime(session.startedAt ?? session.createdAt)),
    h('td', {}, session.transport),
  );
}

function sessionsTable(sessions) {
  if (sessions.length === 0) return h('p', { class: 'muted', id: 'no-sessions' }, 'No sessions yet.');
  const head = h('tr', {}, ...['Topic', 'Status', 'Participants', 'Messages', 'Tokens', 'Cost', 'Started', 'Channel'].map((title) => h('th', {}, title)));
  return h('table', { class: 'sessions', id: 'sessions-table' }, h('thead', {}, head), h('tbody', {}, sessions.map(sessionRow)));
}

/** The least time between two refreshes of the list while sessions talk (each is one query of every session's counts). */
const REFRESH_GAP_MS = 1000;

/** Renders the sessions page; returns its cleanup. */
export async function renderSessionsPage(main, context) {
  const list = h('section', { class: 'card' }, h('h2', {}, 'Sessions'), h('p', { class: 'muted' }, 'Loading…'));
  const status = await context.status();
  fill(main, status.localChannel ? startForm() : null, searchBox(context.query), list);
  // Only what changed is redrawn: a click on a session's link is not lost to a refresh.
  const refresh = async () => morphChildren(list, [h('h2', {}, 'Sessions'), sessionsTable(await getJson('/api/sessions'))]);
  await refresh();
  // A session's status and its counts change with its messages: at most one refresh a second, and one more after it
  // when something changed meanwhile, so the list ends up current without a query per message.
  const refreshSoon = coalesced(refresh, { gapMs: REFRESH_GAP_MS, isCurrent: context.isCurrent });
  return openEvents({}, (type) => {
    if (type === 'session' || type === 'message') refreshSoon();
  });
}
