// The waterfall of a trace: one row per span, drawn in one pass into a DocumentFragment (no layout reads).
import { h } from './dom.js';
import { formatDuration, formatCount } from './format.js';

/** Row height in pixels; must match `--row` in styles.css (handoff arrows are placed from it). */
export const ROW_HEIGHT = 24;
const SVG = 'http://www.w3.org/2000/svg';
const KIND_LABELS = {
  agent: 'agent',
  generation: 'gen',
  function: 'tool',
  handoff: 'handoff',
  guardrail: 'guard',
  custom: 'custom',
  task: 'task',
  turn: 'turn',
  other: 'span',
};

function percent(value, total) {
  return total > 0 ? (value / total) * 100 : 0;
}

function rowLabel(span) {
  if (span.handoff) return `${span.handoff.from ?? '?'} → ${span.handoff.to ?? '?'}`;
  if (span.kind === 'generation') return span.model ?? span.name;
  return span.name;
}

function row(span, index, total) {
  const tripped = span.guardrail?.triggered;
  const classes = `wf-row kind-${span.kind}${span.error ? ' has-error' : ''}${span.cut ? ' is-cut' : ''}${tripped ? ' tripped' : ''}${span.message ? ' has-message' : ''}`;
  const label = h(
    'div',
    { class: 'wf-label', title: `${span.kind}: ${span.name}${span.agentName ? ` (${span.agentName})` : ''}` },
    h('span', { class: 'kind' }, KIND_LABELS[span.kind]),
    tripped ? h('span', { class: 'trip', 'aria-label': 'guardrail tripped' }, '⚠') : null,
    span.error ? h('span', { class: 'trip' }, '✕') : null,
    span.cut ? h('span', { class: 'cut', 'aria-label': 'cut short' }, '■') : null,
    rowLabel(span),
  );
  label.style.paddingLeft = `${6 + span.depth * 14}px`;
  const bar = h('div', { class: 'wf-bar' });
  bar.style.left = `${percent(span.startOffsetMs, total)}%`;
  bar.style.width = `${Math.max(percent(span.durationMs ?? total - span.startOffsetMs, total), 0.4)}%`;
  const tokens = span.inputTokens || span.outputTokens ? `${formatCount(span.inputTokens)}/${formatCount(span.outputTokens)}` : '';
  return h(
    'div',
    { class: classes, 'data-index': index, 'data-span-id': span.id, role: 'button', tabindex: 0 },
    label,
    h('div', { class: 'wf-track' }, bar),
    h('div', { class: 'wf-time' }, formatDuration(span.durationMs)),
    h('div', { class: 'wf-tokens' }, tokens),
  );
}

function handoffArrows(spans, total) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'wf-links');
  svg.setAttribute('height', String(spans.length * ROW_HEIGHT));
  svg.setAttribute('aria-hidden', 'true');
  spans.forEach((span, index) => {
    if (!span.handoff?.to) return;
    const targetIndex = spans.findIndex((candidate, position) => position > index && candidate.kind === 'agent' && candidate.agentName === span.handoff.to);
    if (targetIndex < 0) return;
    const target = spans[targetIndex];
    const line = document.createElementNS(SVG, 'line');
    line.setAttribute('x1', `${percent(span.startOffsetMs + (span.durationMs ?? 0), total)}%`);
    line.setAttribute('y1', String(index * ROW_HEIGHT + ROW_HEIGHT / 2));
    line.setAttribute('x2', `${percent(target.startOffsetMs, total)}%`);
    line.setAttribute('y2', String(targetIndex * ROW_HEIGHT + ROW_HEIGHT / 2));
    line.setAttribute('class', 'handoff-link');
    svg.append(line);
  });
  return svg;
}

/** Draws the waterfall of `detail` into `container`; `onSelect(span)` runs when a row is chosen. */
export function renderWaterfall(container, detail, onSelect) {
  const total = Math.max(detail.trace.durationMs, 1);
  const fragment = document.createDocumentFragment();
  fragment.append(
    h(
      'div',
      { class: 'wf-head' },
      h('span', {}, 'Span'),
      h('span', { class: 'wf-axis' }, h('span', {}, '0'), h('span', {}, formatDuration(total / 2)), h('span', {}, formatDuration(total))),
      h('span', {}, 'Duration'),
      h('span', {}, 'Tokens in/out'),
    ),
  );
  const rows = h('div', { class: 'wf-rows' });
  const spans = detail.spans;
  for (let index = 0; index < spans.length; index += 1) rows.append(row(spans[index], index, total));
  rows.append(handoffArrows(spans, total));
  fragment.append(rows);
  container.replaceChildren(fragment);
  // One listener for every row: 500 spans do not need 500 handlers.
  const choose = (event) => {
    const target = event.target.closest('.wf-row');
    if (!target || (event.type === 'keydown' && event.key !== 'Enter')) return;
    for (const selected of container.querySelectorAll('.wf-row.selected')) selected.classList.remove('selected');
    target.classList.add('selected');
    onSelect(spans[Number(target.dataset.index)]);
  };
  container.onclick = choose;
  container.onkeydown = choose;
  requestAnimationFrame(() => {
    container.dataset.rendered = 'true';
    performance.mark('waterfall-drawn');
  });
}

/** Selects the row of a span programmatically (a link from a message). */
export function selectSpan(container, spanId) {
  const target = container.querySelector(`.wf-row[data-span-id="${CSS.escape(spanId)}"]`);
  if (!target) return;
  target.click();
  target.scrollIntoView({ block: 'center' });
}
