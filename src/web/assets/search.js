// Search across sessions: topics and every message's text; each hit links to its message in its session.
import { getJson } from './api.js';
import { h } from './dom.js';
import { formatTime } from './format.js';
import { messageHref } from './transcript.js';

function excerpt(text, needle) {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  const start = Math.max(0, at - 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, start + 180)}${start + 180 < text.length ? '…' : ''}`;
}

function results(found, needle) {
  if (found.sessions.length === 0 && found.messages.length === 0) return h('p', { class: 'muted', id: 'search-empty' }, `Nothing matches “${needle}”.`);
  const sessions = found.sessions.map((session) =>
    h(
      'li',
      { 'data-session-id': session.id },
      h('a', { href: `#/sessions/${encodeURIComponent(session.id)}` }, session.topic),
      h('span', { class: 'muted' }, ` · ${formatTime(session.startedAt ?? session.createdAt)}`),
    ),
  );
  const messages = found.messages.map(({ sessionTopic, message }) =>
    h(
      'li',
      { class: 'search-hit' },
      h('a', { href: messageHref(message.sessionId, message.number) }, `${sessionTopic} #${message.number}`),
      h('span', { class: 'muted' }, ` · ${message.speaker.name}: `),
      excerpt(message.text, needle),
    ),
  );
  return [
    sessions.length ? [h('h3', {}, 'Sessions'), h('ul', { id: 'search-sessions' }, sessions)] : null,
    messages.length ? [h('h3', {}, 'Messages'), h('ul', { id: 'search-messages' }, messages)] : null,
  ];
}

/** The search form of the sessions page; `?q=` in the route runs it. */
export function searchBox(query) {
  const input = h('input', {
    type: 'search',
    id: 'search-sessions-input',
    name: 'q',
    value: query.get('q') ?? '',
    placeholder: 'Search topics and transcripts',
    'aria-label': 'Search topics and transcripts',
  });
  const output = h('div', { id: 'search-results', role: 'status' });
  const form = h('form', { class: 'card search', id: 'session-search' }, input, h('button', { type: 'submit' }, 'Search'), output);
  const run = async (needle) => {
    if (!needle) return output.replaceChildren();
    output.replaceChildren(h('p', { class: 'muted' }, 'Searching…'));
    const found = await getJson(`/api/search?q=${encodeURIComponent(needle)}`);
    output.replaceChildren(...[results(found, needle)].flat(2).filter(Boolean));
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run(input.value.trim()).catch((error) => output.replaceChildren(h('p', { class: 'error' }, error.message)));
  });
  if (input.value.trim()) run(input.value.trim()).catch(() => undefined);
  return form;
}
