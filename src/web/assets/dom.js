// Builds DOM nodes from data. Text always goes in as text nodes: model output is never parsed as HTML.

/** Creates an element: attributes (class, data-*, aria-*, on<event> handlers) and children (nodes or text). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'value') element.value = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (nested arrays, nodes, text; null and false are skipped). */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Makes `nodes` (elements) the container's children, keeping each child that reads the same as its replacement: a
 * panel redrawn while answers stream in would otherwise lose the click a person was making on it.
 */
export function updateChildren(container, nodes) {
  nodes.forEach((node, index) => {
    const current = container.children[index];
    if (!current) container.append(node);
    else if (current.outerHTML !== node.outerHTML) container.replaceChild(node, current);
  });
  while (container.children.length > nodes.length) container.lastElementChild.remove();
}

/**
 * Makes `nodes` the container's children by changing only what differs, down to a text node: a line whose counts
 * change with every answer keeps its links, so a click on one is not lost to the redraw. For nodes without event
 * listeners (an element kept in place keeps its own, not its replacement's).
 */
export function morphChildren(container, nodes) {
  nodes.forEach((node, index) => {
    const current = container.childNodes[index];
    const key = keyOf(node);
    if (!current) return void container.append(node);
    if (key === undefined || keyOf(current) === key) return morph(current, node);
    // A keyed node (a session's row) is moved to its place or inserted there, so a new row above the others does not
    // redraw every row below it.
    const keyed = [...container.childNodes].slice(index + 1).find((child) => keyOf(child) === key);
    container.insertBefore(keyed ?? node, current);
    if (keyed) morph(keyed, node);
  });
  while (container.childNodes.length > nodes.length) container.lastChild.remove();
}

/** The `data-key` that names an element across redraws. */
function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.dataset.key : undefined;
}

function morph(current, next) {
  if (current.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
    if (current.data !== next.data) current.data = next.data;
  } else if (current.nodeName !== next.nodeName || !sameAttributes(current, next)) current.replaceWith(next);
  else if (current.outerHTML !== next.outerHTML) morphChildren(current, [...next.childNodes]);
}

function sameAttributes(current, next) {
  if (current.nodeType !== Node.ELEMENT_NODE) return current.isEqualNode(next);
  if (current.attributes.length !== next.attributes.length) return false;
  return [...next.attributes].every((attribute) => current.getAttribute(attribute.name) === attribute.value);
}

/** A link only to http(s) addresses; anything else (javascript:, data:) becomes plain text. */
export function safeLink(url, label) {
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return h('a', { href: parsed.href, target: '_blank', rel: 'noopener noreferrer' }, label);
  } catch {
    // not a URL: fall through to text
  }
  return h('span', {}, label);
}

/** Parses the hash route: `#/a/b?x=1` -> { parts: ['a','b'], query: URLSearchParams }. */
export function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = hash.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** Replaces a node's children (nested arrays, nodes, text; null and false are skipped). */
export function fill(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}
