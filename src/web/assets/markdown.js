// A small, safe markdown view: headings, lists, paragraphs, **bold**, `code`. Built from text nodes only,
// so model text can never inject markup.
import { h } from './dom.js';

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`)/g;

/** Inline spans of a line: bold and code, everything else as text. */
export function inline(text) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return h('strong', {}, part.slice(2, -2));
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) return h('code', {}, part.slice(1, -1));
    return part;
  });
}

function listItem(line) {
  const bullet = /^\s*(?:[-*•]|\d+[.)])\s+(.*)$/.exec(line);
  return bullet ? { ordered: /^\s*\d/.test(line), text: bullet[1] } : null;
}

/** Renders markdown text as a fragment of block elements. */
export function markdown(text) {
  const fragment = document.createDocumentFragment();
  let list = null;
  let paragraph = null;
  for (const line of text.split('\n')) {
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = listItem(line);
    if (!item) list = null;
    if (heading || item || line.trim() === '') paragraph = null;
    if (heading) fragment.append(h(`h${Math.min(heading[1].length + 3, 6)}`, { class: 'md-heading' }, inline(heading[2])));
    else if (item) {
      if (!list || (list.tagName === 'OL') !== item.ordered) fragment.append((list = h(item.ordered ? 'ol' : 'ul', { class: 'md-list' })));
      list.append(h('li', {}, inline(item.text)));
    } else if (line.trim() !== '') {
      if (paragraph) paragraph.append(h('br'), ...inline(line));
      else fragment.append((paragraph = h('p', { class: 'md-paragraph' }, inline(line))));
    }
  }
  return fragment;
}
