// Markdown as people read it, through markdown-it (a maintained CommonMark renderer). Raw HTML in any text
// stays text (`html: false`), links pass markdown-it's own validation and then an allow-list, and the result
// is parsed into an inert template and filtered again before it reaches the page.
import markdownit from './markdown-it.js';
import { h } from './dom.js';

const md = markdownit({ html: false, linkify: true, breaks: true, typographer: false });
// Remote images would load from anywhere a model names; the console shows none.
md.disable('image');
// Table alignment comes out as inline style, which the Content-Security-Policy refuses: use classes instead.
md.core.ruler.push('align_classes', (state) => {
  for (const token of state.tokens) {
    const style = token.attrGet?.('style');
    if (!style) continue;
    const align = /text-align:(left|right|center)/.exec(style);
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align[1]}`);
  }
});

const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'em',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ATTRIBUTES = { a: ['href', 'title'], ol: ['start'], code: ['class'], th: ['class'], td: ['class'] };
// Message numbers as people and agents cite them: "#12", "(#3, #4)"; never inside a word or a URL.
const CITATION = /(^|[\s([,;:])#(\d{1,5})\b/g;
const HAS_CITATION = new RegExp(CITATION.source);

function safeHref(href) {
  if (href.startsWith('#')) return href;
  try {
    const url = new URL(href, location.href);
    // A link to this console (a room, a message, a document) stays in this tab.
    if (url.origin === location.origin && url.hash.startsWith('#/')) return url.hash;
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function cleanElement(element) {
  const tag = element.tagName.toLowerCase();
  if (!ALLOWED.has(tag)) return element.replaceWith(document.createTextNode(element.textContent ?? ''));
  const allowed = ATTRIBUTES[tag] ?? [];
  for (const attribute of [...element.attributes]) if (!allowed.includes(attribute.name)) element.removeAttribute(attribute.name);
  if (tag === 'a') {
    const href = safeHref(element.getAttribute('href') ?? '');
    if (!href) return element.replaceWith(document.createTextNode(element.textContent ?? ''));
    element.setAttribute('href', href);
    if (!href.startsWith('#')) {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
  }
  if (tag === 'pre')
    element.replaceWith(
      h(
        'div',
        { class: 'code-block' },
        h('button', { type: 'button', class: 'copy', 'data-copy': 'code', title: 'Copy code' }, 'Copy'),
        element.cloneNode(true),
      ),
    );
}

function linkCitations(root, sessionId) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if (!node.parentElement?.closest('a, code, pre') && HAS_CITATION.test(node.data)) found.push(node);
  for (const node of found) {
    const parts = [];
    let last = 0;
    for (const match of node.data.matchAll(CITATION)) {
      const start = match.index + match[1].length;
      parts.push(
        node.data.slice(last, start),
        h('a', { class: 'cite', href: `#/sessions/${encodeURIComponent(sessionId)}?n=${match[2]}`, 'data-number': match[2] }, `#${match[2]}`),
      );
      last = start + match[2].length + 1;
    }
    parts.push(node.data.slice(last));
    node.replaceWith(...parts.filter((part) => part !== ''));
  }
}

// A task list item (the record's next steps, "- [ ] action") shows its box as Notion does, ticked for "[x]".
const TASK_ITEM = /^(\s*[-*+] )\[([ xX])\] /gm;
const withTaskBoxes = (text) => text.replace(TASK_ITEM, (_line, bullet, mark) => `${bullet}${mark === ' ' ? '☐' : '☑'} `);

/** The sanitised HTML tree of markdown text, as a fragment; `sessionId` turns "#12" citations into links to message 12. */
export function markdown(text, options = {}) {
  const template = document.createElement('template');
  template.innerHTML = md.render(withTaskBoxes(String(text ?? '')));
  const content = template.content;
  for (const element of [...content.querySelectorAll('*')].reverse()) cleanElement(element);
  if (options.sessionId) linkCitations(content, options.sessionId);
  return content;
}

/** Inline markdown (no paragraphs): emphasis, code and links inside a line such as a list item. */
export function inline(text) {
  const template = document.createElement('template');
  template.innerHTML = md.renderInline(String(text ?? ''));
  for (const element of [...template.content.querySelectorAll('*')].reverse()) cleanElement(element);
  return template.content;
}
