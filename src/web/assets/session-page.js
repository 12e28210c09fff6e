// A session: live transcript (SSE), plan, limits, record, TLDR, and the local channel's composer.
import { getJson, openEvents } from './api.js';
import { coalesced } from './coalesced.js';
import { composer, runCommand } from './composer.js';
import { h, morphChildren, updateChildren } from './dom.js';
import { formatCost, formatCount, plural } from './format.js';
import { sessionPanels } from './session-panels.js';
import { ideasPanel } from './ideas-panel.js';
import { critiquePanel } from './critique-panel.js';
import { Notes, withNotes } from './notes.js';
import { transcriptTools } from './transcript-tools.js';
import { Drafts, itemKey, Transcript } from './transcript.js';

const FINISHED = ['completed', 'stopped', 'cancelled'];

/** Totals the header shows: every message in the transcript, and the session's tokens and cost (as the limits and the usage table). */
function totals(feed) {
  const session = feed.detail.session;
  return { messages: feed.items.filter((item) => item.kind === 'message').length, tokens: session.totalTokens, cost: session.totalCostUsd };
}

function header(feed) {
  const session = feed.detail.session;
  const sums = totals(feed);
  const parent = session.parentId
    ? h(
        'p',
        { class: 'muted', id: 'session-parent' },
        'Explored from ',
        h('a', { href: `#/sessions/${encodeURIComponent(session.parentId)}` }, session.parentTopic ?? 'the parent session'),
      )
    : null;
  return [
    h('h2', { id: 'session-topic' }, session.topic),
    parent,
    h(
      'p',
      { class: 'muted session-facts' },
      h('span', { class: `status status-${session.status}`, id: 'session-status' }, session.status.replace('_', ' ')),
      ' · ',
      h('span', { id: 'session-counts' }, `${plural(sums.messages, 'message')} · ${formatCount(sums.tokens)} tokens · ${formatCost(sums.cost)}`),
      ' · ',
      h('a', { href: `#/traces?sessionId=${encodeURIComponent(session.id)}`, id: 'session-traces' }, 'traces of this session'),
      session.endReason ? ` · ended: ${session.endReason}` : null,
    ),
  ];
}

function endedNotice(session) {
  return h(
    'p',
    { class: 'composer-ended', id: 'composer-ended', role: 'status' },
    `This session is ${session.status.replace('_', ' ')}: nothing more can be said here. Start a new session from `,
    h('a', { href: '#/' }, 'Sessions'),
    ', or read its documents beside the transcript.',
  );
}

function highlight(scroller, query) {
  const selector = query.get('n')
    ? `[data-number="${CSS.escape(query.get('n'))}"]`
    : query.get('message')
      ? `#m-${CSS.escape(query.get('message'))}`
      : query.get('external')
        ? `[data-external-id="${CSS.escape(query.get('external'))}"]`
        : null;
  const target = selector ? scroller.querySelector(selector) : null;
  if (!target) return false;
  target.classList.add('highlight');
  target.scrollIntoView({ block: 'center' });
  return true;
}

/** Renders a session page; returns its cleanup. */
export async function renderSessionPage(main, sessionId, context) {
  const path = `/api/sessions/${encodeURIComponent(sessionId)}/feed`;
  const [first, status] = await Promise.all([getJson(path), context.status()]);
  let feed = first;
  const { session } = feed.detail;
  const title = h('div', { class: 'session-title' });
  const list = h('div', { class: 'transcript', id: 'transcript' });
  const draftBox = h('div', { class: 'drafts', id: 'drafts' });
  // The last note for screen readers; the notes themselves stand in the transcript.
  const replies = h('div', { class: 'sr-only', id: 'replies', role: 'status' });
  const scroller = h('div', { class: 'transcript-scroll' }, list, draftBox, replies);
  const side = h('aside', { class: 'side', id: 'side' });
  const transcript = new Transcript(list);
  const drafts = new Drafts(draftBox);
  const local = session.transport === 'local';
  const notes = new Notes(session.roomId);
  let draw = () => undefined;
  const showReply = (text, { at, buttons } = {}) => {
    notes.add(text, feed.items.length ? itemKey(feed.items[feed.items.length - 1]) : null, at, buttons);
    replies.textContent = text;
    draw();
    scroller.scrollTop = scroller.scrollHeight;
  };
  const approve = () => runCommand(session.roomId, 'approve', showReply);
  const input = local ? composer(session.roomId, showReply) : h('p', { class: 'muted' }, `This session lives in ${session.transport}; answer it there.`);
  const ended = h('div', { id: 'ended-slot' });
  const tools = transcriptTools(session, list);
  main.replaceChildren(h('div', { class: 'session-page' }, h('section', { class: 'conversation card' }, title, tools.node, scroller, input, ended), side));
  // A "Done n" button: its command runs as the person; when it did its work the button goes, and `then` shows anew.
  const runButton = async (control) => {
    const button = { command: control.dataset.run, args: control.dataset.args };
    control.disabled = true;
    const reply = await runCommand(session.roomId, button.command, showReply, button.args);
    control.disabled = false;
    if (!reply || reply.private) return;
    notes.press(control.closest('[data-item]').dataset.item, button);
    if (control.dataset.then) await runCommand(session.roomId, control.dataset.then, showReply);
    draw();
  };
  list.addEventListener('click', (event) => {
    if (event.target.closest('[data-action="approve"]')) approve();
    const command = event.target.closest('[data-run]');
    if (command && !command.disabled) runButton(command);
  });

  let highlighted = false;
  // Follows the conversation while the person reads at the bottom; leaves them alone when they scrolled up.
  const pinned = (change) => {
    const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    change();
    if (nearBottom && !highlighted) scroller.scrollTop = scroller.scrollHeight;
  };
  draw = () => {
    const detail = feed.detail;
    morphChildren(title, header(feed).filter(Boolean));
    pinned(() =>
      transcript.update(withNotes(feed.items, notes.list, itemKey), {
        sessionId: detail.session.id,
        demoMode: status.demoMode,
        simulatedNames: status.simulatedNames ?? null,
        awaitingApproval: detail.session.status === 'awaiting_approval',
        pressed: notes.pressed,
      }),
    );
    tools.refilter();
    for (const item of feed.items) if (item.kind === 'message') drafts.clearSpeaker(item.message.speaker.name);
    drafts.keepPreviews(new Set(feed.previews.map((preview) => `preview:${preview.externalId}`)));
    for (const preview of feed.previews) drafts.show(`preview:${preview.externalId}`, preview.speaker.name, preview.content);
    const numbers = new Map(feed.items.filter((item) => item.kind === 'message').map((item) => [item.message.id, item.message.number]));
    updateChildren(side, [
      ...sessionPanels(
        detail,
        approve,
        feed.items.filter((item) => item.kind === 'message').map((item) => item.message),
      ),
      ...[critiquePanel(feed.critique), ideasPanel(feed.ideas, numbers)].filter(Boolean),
    ]);
    const finished = FINISHED.includes(detail.session.status);
    // An ended session keeps its composer in view, switched off, with a line saying why.
    if (local) for (const control of input.querySelectorAll('textarea, button')) control.disabled = finished;
    ended.replaceChildren(...(finished ? [endedNotice(detail.session)] : []));
    if (!highlighted) highlighted = highlight(scroller, context.query);
  };
  draw();
  if (!highlighted) scroller.scrollTop = scroller.scrollHeight;

  const refresh = coalesced(() =>
    getJson(path).then((next) => {
      feed = next;
      if (context.isCurrent()) draw();
    }),
  );
  const close = openEvents(
    { sessionId, roomId: local ? session.roomId : null },
    (type, event) => {
      if (type === 'local-preview') return pinned(() => drafts.show(`preview:${event.preview.externalId}`, event.preview.speaker.name, event.preview.content));
      if (type === 'local-notice') return showReply(event.content, { at: event.at });
      if (type === 'local-typing') return;
      refresh();
    },
    refresh,
  );
  return close;
}
