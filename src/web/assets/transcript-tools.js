// Above a transcript: find within it (non-matching messages fold away) and export it as markdown or JSON.
import { h } from './dom.js';

/** The tools of one session's transcript; `refilter()` reapplies the search after the list was redrawn. */
export function transcriptTools(session, list) {
  const base = `/api/sessions/${encodeURIComponent(session.id)}/export`;
  const count = h('span', { class: 'muted', id: 'find-count', role: 'status' });
  const input = h('input', { type: 'search', id: 'find-in-transcript', placeholder: 'Find in this transcript', 'aria-label': 'Find in this transcript' });
  const refilter = () => {
    const needle = input.value.trim().toLowerCase();
    let shown = 0;
    for (const item of list.children) {
      const match = !needle || item.textContent.toLowerCase().includes(needle);
      item.classList.toggle('filtered-out', !match);
      if (match && needle) shown += 1;
    }
    count.textContent = needle ? `${shown} found` : '';
  };
  input.addEventListener('input', refilter);
  const exports = h(
    'span',
    { class: 'exports' },
    'Export: ',
    h('a', { href: `${base}?format=md`, download: '', id: 'export-markdown' }, 'Markdown'),
    ' · ',
    h('a', { href: `${base}?format=json`, download: '', id: 'export-json' }, 'JSON'),
  );
  return { node: h('div', { class: 'transcript-tools' }, input, count, exports), refilter };
}
