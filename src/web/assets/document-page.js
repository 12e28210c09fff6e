// A session document (the Scribe record or the TLDR) as a page of its own: what the closing message links to.
import { getJson } from './api.js';
import { h } from './dom.js';
import { formatTime } from './format.js';
import { markdown } from './markdown.js';

const TITLES = { record: 'Detailed record', tldr: 'TLDR' };

/** Renders `#/sessions/:id/documents/:kind`. */
export async function renderDocumentPage(main, sessionId, kind) {
  const detail = await getJson(`/api/sessions/${encodeURIComponent(sessionId)}`);
  const document = kind === 'tldr' ? detail.tldr : detail.record;
  const back = h('a', { href: `#/sessions/${encodeURIComponent(sessionId)}`, id: 'document-session' }, detail.session.topic);
  const other = kind === 'tldr' ? 'record' : 'tldr';
  const body = document
    ? [
        h(
          'p',
          { class: 'muted' },
          `Version ${document.version}, ${formatTime(document.updatedAt)} · `,
          h('a', { href: `#/sessions/${encodeURIComponent(sessionId)}/documents/${other}` }, TITLES[other]),
        ),
        h('div', { class: 'md document-page', id: 'document-body' }, markdown(document.content, { sessionId })),
      ]
    : h('p', { class: 'muted', id: 'document-body' }, 'Not written yet: the Scribe writes the record while the session runs, and the TLDR follows it.');
  main.replaceChildren(
    h(
      'article',
      { class: 'card document-view' },
      h('p', { class: 'muted' }, 'Session: ', back),
      h('h2', { id: 'document-title' }, TITLES[kind] ?? 'Document'),
      body,
    ),
  );
  return null;
}
