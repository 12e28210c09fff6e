// A session: live transcript (SSE), plan, limits, record, TLDR, and the local channel's composer.
import { getJson, openEvents } from './api.js';
import { composer, runCommand } from './composer.js';
import { h } from './dom.js';
import { formatCost, formatCount } from './format.js';
import { sessionPanels } from './session-panels.js';
import { ideasPanel } from './ideas-panel.js';
import { Drafts, Transcript } from './transcript.js';

const FINISHED = ['completed', 'stopped', 'cancelled'];

function header(session) {
  return [
    h('h2', { id: 'session-topic' }, session.topic),
    h(
      'p',
      { class: 'muted session-facts' },
      h('span', { class: `status status-${session.status}`, id: 'session-status' }, session.status.replace('_', ' ')),
      ` · ${formatCount(session.messageCount)} messages · ${formatCount(session.totalTokens)} tokens · ${formatCost(session.totalCostUsd)} · `,
      h('a', { href: `#/traces?sessionId=${encodeURIComponent(session.id)}`, id: 'session-traces' }, 'traces of this session'),
      session.endReason ? ` · ended: ${session.endReason}` : null,
    ),
  ];
}

function highlight(scroller, query) {
  const selector = query.get('message') ? `#m-${CSS.escape(query.get('message'))}` : query.get('external') ? `[data-external-id="${CSS.escape(query.get('external'))}"]` : null;
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
  const replies = h('div', { class: 'replies', id: 'replies', role: 'status' });
  const scroller = h('div', { class: 'transcript-scroll' }, list, draftBox, replies);
  const side = h('aside', { class: 'side', id: 'side' });
  const transcript = new Transcript(list);
  const drafts = new Drafts(draftBox);
  const local = session.transport === 'local';
  const showReply = (text) => {
    replies.append(h('p', { class: 'reply' }, h('span', { class: 'badge' }, 'to you'), ' ', text));
    scroller.scrollTop = scroller.scrollHeight;
  };
  const approve = () => runCommand(session.roomId, 'approve', showReply);
  const input = local ? composer(session.roomId, showReply) : h('p', { class: 'muted' }, `This session lives in ${session.transport}; answer it there.`);
  main.replaceChildren(h('div', { class: 'session-page' }, h('section', { class: 'conversation card' }, title, scroller, input), side));
  list.addEventListener('click', (event) => {
    if (event.target.closest('[data-action="approve"]')) approve();
  });

  let highlighted = false;
  // Follows the conversation while the person reads at the bottom; leaves them alone when they scrolled up.
  const pinned = (change) => {
    const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
    change();
    if (nearBottom && !highlighted) scroller.scrollTop = scroller.scrollHeight;
  };
  const draw = () => {
    const detail = feed.detail;
    title.replaceChildren(...header(detail.session));
    pinned(() => transcript.update(feed.items, { demoMode: status.demoMode, simulatedNames: status.simulatedNames ?? null, awaitingApproval: detail.session.status === 'awaiting_approval' }));
    for (const item of feed.items) if (item.kind === 'message') drafts.clearSpeaker(item.message.speaker.name);
    drafts.keepPreviews(new Set(feed.previews.map((preview) => `preview:${preview.externalId}`)));
    for (const preview of feed.previews) drafts.show(`preview:${preview.externalId}`, preview.speaker.name, preview.content);
    side.replaceChildren(...sessionPanels(detail, approve), ...[ideasPanel(feed.ideas)].filter(Boolean));
    if (local) input.hidden = FINISHED.includes(detail.session.status);
    if (!highlighted) highlighted = highlight(scroller, context.query);
  };
  draw();
  if (!highlighted) scroller.scrollTop = scroller.scrollHeight;

  let refreshing = null;
  let again = false;
  const refresh = async () => {
    if (refreshing) return void (again = true);
    refreshing = getJson(path)
      .then((next) => {
        feed = next;
        if (context.isCurrent()) draw();
      })
      .catch(() => undefined)
      .finally(() => {
        refreshing = null;
        if (again) {
          again = false;
          refresh();
        }
      });
  };
  const close = openEvents({ sessionId, roomId: local ? session.roomId : null }, (type, event) => {
    if (type === 'stream') return pinned(() => drafts.show(`stream:${event.draftId}`, event.speaker.name, event.text));
    if (type === 'local-preview') return pinned(() => drafts.show(`preview:${event.preview.externalId}`, event.preview.speaker.name, event.preview.content));
    if (type === 'local-notice') return showReply(event.content);
    if (type === 'local-typing') return;
    refresh();
  }, refresh);
  return close;
}
