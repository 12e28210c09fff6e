// The side of a session page: plan (with approval), limits as bars, the Scribe record and the TLDR.
import { h } from './dom.js';
import { formatCost, formatCount, formatTime } from './format.js';
import { inline, markdown } from './markdown.js';

function list(items) {
  return h(
    'ul',
    {},
    (items ?? []).map((item) => h('li', {}, inline(item))),
  );
}

function planPanel(session, onApprove) {
  const plan = session.plan;
  if (!plan) {
    const questions = session.plannerQuestions ?? [];
    return h(
      'section',
      { class: 'card', id: 'plan' },
      h('h3', {}, 'Plan'),
      questions.length ? [h('p', {}, 'The Planner asks:'), list(questions)] : h('p', { class: 'muted' }, 'The Planner is working on a plan.'),
    );
  }
  const parameters = plan.parameters;
  const approve =
    session.status === 'awaiting_approval' ? h('button', { class: 'approve primary', id: 'approve-plan', onclick: onApprove }, 'Approve plan') : null;
  return h(
    'section',
    { class: 'card', id: 'plan' },
    h('h3', {}, 'Plan'),
    plan.preset ? h('p', { class: 'preset' }, 'Preset: ', h('strong', {}, plan.preset)) : h('p', { class: 'preset muted' }, 'Preset: none (free-form)'),
    h('div', { class: 'md' }, markdown(plan.expandedTopic, { sessionId: session.id })),
    h('h4', {}, 'Objectives'),
    list(plan.objectives),
    h('h4', {}, 'Key areas'),
    list(plan.keyAreas),
    h('h4', {}, 'Expected flow'),
    list(plan.expectedFlow),
    h(
      'p',
      { class: 'muted' },
      `Up to ${formatCount(parameters.maxMessages)} messages, ${formatCount(parameters.maxTokens)} tokens, ${formatCost(parameters.maxCostUsd)}, ${parameters.timeoutMinutes} min. Estimate: ${plan.estimate.durationMinutes} min, ${formatCost(plan.estimate.costUsd)}.`,
    ),
    h('p', { class: 'muted', 'data-critique-round': plan.critiqueRound ? 'yes' : 'no' }, `Critique round: ${plan.critiqueRound ? 'yes' : 'no'}.`),
    approve,
  );
}

// The message limit counts what people and participants say (from the first message of planning on), never the
// roles' messages: the header's count is every message of the transcript, so this label says which ones it counts.
const LIMIT_LABELS = { messages: 'Messages (people + participants)', tokens: 'Tokens', cost: 'Cost', minutes: 'Minutes' };

function limitBar(limit) {
  const used = limit.name === 'cost' ? formatCost(limit.used) : formatCount(limit.used);
  const max = limit.name === 'cost' ? formatCost(limit.limit) : formatCount(limit.limit);
  const fill = h('div', { class: `fill ${limit.percent >= 90 ? 'high' : limit.percent >= 70 ? 'mid' : ''}` });
  // CSSOM writes are allowed under the Content-Security-Policy (inline style attributes are not).
  fill.style.width = `${limit.percent}%`;
  return h(
    'div',
    { class: 'limit', 'data-limit': limit.name },
    h('div', { class: 'limit-label' }, h('span', {}, LIMIT_LABELS[limit.name]), h('span', {}, `${used} / ${max}`)),
    h('div', { class: 'bar', role: 'progressbar', 'aria-valuenow': limit.percent, 'aria-valuemin': 0, 'aria-valuemax': 100 }, fill),
  );
}

function limitsPanel(limits) {
  return h(
    'section',
    { class: 'card', id: 'limits' },
    h('h3', {}, 'Limits'),
    limits.length ? limits.map(limitBar) : h('p', { class: 'muted' }, 'Set when the plan is approved.'),
  );
}

function documentPanel(session, kind, title, document) {
  const page = h('a', { href: `#/sessions/${encodeURIComponent(session.id)}/documents/${kind}`, class: 'open-document', id: `open-${kind}` }, 'Open as a page');
  const body = document
    ? [
        h('p', { class: 'muted' }, `Version ${document.version}, ${formatTime(document.updatedAt)} · `, page),
        h('div', { class: 'document md' }, markdown(document.content, { sessionId: session.id })),
      ]
    : h('p', { class: 'muted' }, 'Not written yet.');
  return h('section', { class: 'card', id: kind }, h('h3', {}, title), body);
}

function explorationsPanel(session) {
  if (!session.explorations?.length) return null;
  return h(
    'section',
    { class: 'card', id: 'explorations' },
    h('h3', {}, 'Explored from this session'),
    h(
      'ul',
      {},
      session.explorations.map((entry) => h('li', {}, h('a', { href: `#/sessions/${encodeURIComponent(entry.id)}` }, entry.topic))),
    ),
  );
}

/**
 * Usage per speaker from the transcript's messages, plus the model calls that left no message (planning checks,
 * moderation, the Scribe and the TLDR, answers withdrawn at a restart) as the rest of
 * the session's total: the table, the header and the limits read the same numbers, and all move with every message.
 */
export function usageRows(session, messages) {
  const rows = new Map();
  for (const message of messages) {
    if (!message.inputTokens && !message.outputTokens && !message.costUsd) continue;
    const row = rows.get(message.speaker.name) ?? { name: message.speaker.name, calls: 0, tokens: 0, costUsd: 0 };
    row.calls += 1;
    row.tokens += message.inputTokens + message.outputTokens;
    row.costUsd += message.costUsd;
    rows.set(row.name, row);
  }
  const listed = [...rows.values()];
  const tokens = session.totalTokens - listed.reduce((sum, row) => sum + row.tokens, 0);
  const costUsd = session.totalCostUsd - listed.reduce((sum, row) => sum + row.costUsd, 0);
  if (tokens > 0 || costUsd > 1e-9) listed.push({ name: 'Other model calls', calls: null, tokens: Math.max(tokens, 0), costUsd: Math.max(costUsd, 0) });
  return listed;
}

/** Where the session's cost came from: "Cost $0.0123 (provider)", "(estimated from price table)", "unknown for model X". */
function costSourceNote(session, cost) {
  if (!cost) return null;
  const text = cost.sources.length === 1 && cost.sources[0] === 'unknown' ? `Cost ${cost.text}` : `Cost ${formatCost(session.totalCostUsd)} (${cost.text})`;
  return h('p', { class: 'muted', id: 'usage-cost-source' }, text);
}

function usagePanel(session, messages, cost) {
  const rows = usageRows(session, messages);
  if (rows.length === 0) return null;
  const head = h('tr', {}, ...['Speaker', 'Messages', 'Tokens', 'Cost'].map((text) => h('th', {}, text)));
  const body = rows.map((row) =>
    h(
      'tr',
      {},
      h('td', {}, row.name),
      h('td', { class: 'number' }, row.calls === null ? '–' : formatCount(row.calls)),
      h('td', { class: 'number' }, formatCount(row.tokens)),
      h('td', { class: 'number' }, formatCost(row.costUsd)),
    ),
  );
  const total = h(
    'tr',
    { class: 'total' },
    h('th', {}, 'Total'),
    h('td', {}),
    h('td', { class: 'number', id: 'usage-total-tokens' }, formatCount(session.totalTokens)),
    h('td', { class: 'number' }, formatCost(session.totalCostUsd)),
  );
  return h(
    'section',
    { class: 'card', id: 'usage' },
    h('h3', {}, 'Usage'),
    h('table', {}, h('thead', {}, head), h('tbody', {}, body, total)),
    costSourceNote(session, cost),
  );
}

/** The side panels of a session page. */
export function sessionPanels(detail, onApprove, messages = []) {
  const session = detail.session;
  return [
    planPanel(session, onApprove),
    limitsPanel(detail.limits),
    usagePanel(session, messages, detail.cost),
    explorationsPanel(session),
    documentPanel(session, 'tldr', 'TLDR', detail.tldr),
    documentPanel(session, 'record', 'Scribe record', detail.record),
  ].filter(Boolean);
}
