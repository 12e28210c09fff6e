// The transcript of a session: messages, notices, notes only the person sees, drafts still streaming; each
// message carries its number in the session (what "#12" cites) and links to its trace.
import { h, safeLink } from './dom.js';
import { formatClock, formatCostWithSource, formatTokens } from './format.js';
import { markdown } from './markdown.js';
import { buttonKey } from './notes.js';

// A file a person attached in Discord arrives as "[attached image: mockup.png <address>]". That address is signed and
// dies within a day ("This content is no longer available"); the message in Discord lasts and shows the file afresh.
const FILE_LINE = /^\[attached ([^:\]\n]+): ([^\n]*?) <(https?:\/\/[^\s>]+)>\]$/gm;

/** The text with each file line as the file's name and kind, linked to its Discord message (when there is one). */
export function withFileLinks(text, messageUrl) {
  return text.replace(FILE_LINE, (_line, kind, name) => {
    const label = `📎 \`${name.trim().replace(/`/g, "'") || 'file'}\` (${kind.trim()})`;
    return messageUrl ? `${label} — [open in Discord](${messageUrl.replace(/\(/g, '%28').replace(/\)/g, '%29')})` : label;
  });
}

const STATUS_LABELS = { withheld: 'withheld by a guardrail', internal: 'internal', pending: 'sending…' };

/** The link to a message by its number in the session. */
export function messageHref(sessionId, number) {
  return `#/sessions/${encodeURIComponent(sessionId)}?n=${number}`;
}

const copyButton = () => h('button', { type: 'button', class: 'copy', 'data-copy': 'message', title: 'Copy the text' }, 'Copy');

/** The message's address in Discord; null for one said in the console (its address is the console's own room). */
function discordUrl(message) {
  return message.externalUrl && !message.externalUrl.includes('/#/rooms/') ? message.externalUrl : null;
}

function messageMeta(message, simulated) {
  const parts = [
    h('a', { class: 'number', href: messageHref(message.sessionId, message.number), title: 'Link to this message' }, `#${message.number}`),
    h('time', { datetime: message.createdAt }, formatClock(message.createdAt)),
  ];
  if (message.model) parts.push(h('span', { class: 'model' }, message.model));
  if (message.inputTokens || message.outputTokens)
    parts.push(
      h('span', {}, formatTokens(message.inputTokens, message.outputTokens)),
      h('span', { class: 'cost' }, formatCostWithSource(message.costUsd, message.costSource, message.model)),
    );
  if (message.webSearches)
    parts.push(
      h(
        'span',
        { title: 'Searches OpenRouter ran for this answer (their cost is in the cost shown)' },
        `${message.webSearches} web search${message.webSearches === 1 ? '' : 'es'}`,
      ),
    );
  if (message.edited) parts.push(h('span', { class: 'edited', title: 'Its author edited it after posting; this is the edited text' }, 'edited'));
  if (simulated) parts.push(h('span', { class: 'badge simulated' }, 'simulated'));
  if (STATUS_LABELS[message.deliveryStatus])
    parts.push(h('span', { class: `badge delivery-${message.deliveryStatus}` }, STATUS_LABELS[message.deliveryStatus]));
  if (message.traceId) parts.push(h('a', { class: 'trace-link', href: `#/traces/${encodeURIComponent(message.traceId)}?message=${message.id}` }, 'trace'));
  if (discordUrl(message)) parts.push(safeLink(message.externalUrl, 'open in Discord'));
  parts.push(copyButton());
  return h('div', { class: 'meta' }, parts);
}

/** The web pages a web-grounded answer cites, as links under its text (only http(s) addresses become links). */
function sourcesList(citations) {
  if (!citations?.length) return null;
  const links = citations.flatMap((citation, index) => [index > 0 ? ' · ' : null, safeLink(citation.url, citation.title)]);
  return h('p', { class: 'sources' }, h('span', { class: 'sources-label' }, 'Sources: '), ...links);
}

/** The command buttons of an item not yet pressed there (a pressed one that did its work is gone, as in Discord). */
function openButtons(key, buttons, context) {
  return (buttons ?? []).filter((button) => !context.pressed?.has(buttonKey(key, button)));
}

/**
 * The item's text with the line of each step ticked by its Done button there shown ticked (`☐ 2.` -> `☑ 2.`), as
 * Discord edits the message (core's withShownStepTicked): the stored text stays as posted. A button with `then`
 * (a `!steps` list) is followed by a fresh list instead.
 */
function withPressedStepsTicked(text, key, buttons, context) {
  return (buttons ?? []).reduce((shown, button) => {
    if (button.command !== 'done' || button.then || !context.pressed?.has(buttonKey(key, button))) return shown;
    const number = Number.parseInt(button.args, 10);
    return Number.isInteger(number) ? shown.replace(new RegExp(`^☐ ${number}\\. `, 'm'), `☑ ${number}. `) : shown;
  }, text);
}

/** "Done n" buttons under a closing, a reminder or a `!steps` list: each runs its command as the person. */
function commandButtons(key, buttons, context) {
  const open = openButtons(key, buttons, context);
  if (open.length === 0) return null;
  return h(
    'div',
    { class: 'command-buttons', 'data-item': key },
    ...open.map((button) =>
      h(
        'button',
        { type: 'button', class: 'command-button', 'data-run': button.command, 'data-args': button.args, 'data-then': button.then ?? '' },
        button.label,
      ),
    ),
  );
}

function messageItem(item, context) {
  const { message } = item;
  const text = withPressedStepsTicked(message.text, itemKey(item), item.buttons, context);
  // With some keys set, only the participants without one are simulated; in full demo mode every model is.
  const simulatedSpeaker = !context.simulatedNames || context.simulatedNames.includes(message.speaker.name);
  const simulated = context.demoMode && message.speaker.kind !== 'human' && message.speaker.kind !== 'system' && simulatedSpeaker;
  const approve =
    item.actions.includes('approve_plan') && context.awaitingApproval ? h('button', { class: 'approve', 'data-action': 'approve' }, 'Approve plan') : null;
  return h(
    'article',
    {
      id: `m-${message.id}`,
      class: `message speaker-${message.speaker.kind}`,
      'data-message-id': message.id,
      'data-number': message.number,
      'data-external-id': item.externalId,
      'data-speaker': message.speaker.name,
    },
    h('header', {}, h('strong', { class: 'speaker' }, message.speaker.name), messageMeta(message, simulated)),
    h('div', { class: 'text md', 'data-source': text }, markdown(withFileLinks(text, discordUrl(message)), { sessionId: message.sessionId })),
    sourcesList(message.citations),
    approve,
    commandButtons(itemKey(item), item.buttons, context),
  );
}

function noticeItem(delivery, sessionId) {
  return h(
    'article',
    { class: `message notice speaker-${delivery.speaker.kind}`, 'data-external-id': delivery.externalId },
    h(
      'header',
      {},
      h('strong', { class: 'speaker' }, delivery.speaker.name),
      h(
        'div',
        { class: 'meta' },
        h('time', {}, formatClock(delivery.deliveredAt)),
        delivery.simulated ? h('span', { class: 'badge simulated' }, 'simulated') : null,
        copyButton(),
      ),
    ),
    h('div', { class: 'text md', 'data-source': delivery.content }, markdown(delivery.content, { sessionId })),
  );
}

function noteItem(note, context) {
  const sessionId = context.sessionId;
  return h(
    'article',
    { class: 'message note', 'data-note': note.key, role: 'note' },
    h(
      'header',
      {},
      h('span', { class: 'badge to-you' }, 'to you'),
      h('div', { class: 'meta' }, h('time', { datetime: note.at }, formatClock(note.at)), copyButton()),
    ),
    h('div', { class: 'text md', 'data-source': note.content }, markdown(note.content, { sessionId })),
    commandButtons(itemKey({ kind: 'note', note }), note.buttons, context),
  );
}

/** The key of a transcript item (notes anchor to it). */
export function itemKey(item) {
  if (item.kind === 'message') return `m${item.message.id}`;
  return item.kind === 'note' ? `o${item.note.key}` : `n${item.delivery.externalId}`;
}

function itemNode(item, context) {
  if (item.kind === 'message') return messageItem(item, context);
  return item.kind === 'note' ? noteItem(item.note, context) : noticeItem(item.delivery, context.sessionId);
}

function signature(item, context) {
  if (item.kind === 'note') return `o|${item.note.key}|${openButtons(itemKey(item), item.note.buttons, context).length}`;
  if (item.kind === 'notice') return `n|${item.delivery.externalId}`;
  const message = item.message;
  return `m|${message.id}|${message.deliveryStatus}|${message.traceId}|${message.externalUrl}|${item.actions.join()}|${openButtons(itemKey(item), item.buttons, context).length}|${context.awaitingApproval}|${message.text.length}|${message.edited ? message.text : ''}`;
}

/** Keeps a transcript list in step with the feed, reusing the nodes of items that did not change. */
export class Transcript {
  constructor(list) {
    this.list = list;
    this.nodes = new Map();
  }

  /** Draws the feed, reusing unchanged nodes. */
  update(items, context) {
    const next = new Map();
    const ordered = items.map((item) => {
      const key = itemKey(item);
      const known = this.nodes.get(key);
      const mark = signature(item, context);
      const node = known && known.mark === mark ? known.node : itemNode(item, context);
      next.set(key, { node, mark });
      return node;
    });
    this.nodes = next;
    placeInOrder(this.list, ordered);
  }
}

/**
 * Puts `nodes` in `list` in order, touching only those not in place already. Replacing every child on each update
 * detached the message a person was clicking while answers streamed in: the click was lost.
 */
function placeInOrder(list, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, index) => {
    const current = list.children[index] ?? null;
    if (current !== node) list.insertBefore(node, current);
  });
}

/** The drafts (answers still being written) under the transcript. */
export class Drafts {
  constructor(container) {
    this.container = container;
    this.drafts = new Map();
  }

  /** Shows or updates a draft. */
  show(key, speakerName, text) {
    let draft = this.drafts.get(key);
    if (!draft) {
      draft = {
        speakerName,
        node: h(
          'article',
          { class: 'message draft', 'data-draft': key },
          h('header', {}, h('strong', { class: 'speaker' }, speakerName), h('span', { class: 'muted' }, ' is writing…')),
          h('div', { class: 'text' }),
        ),
      };
      this.drafts.set(key, draft);
      this.container.append(draft.node);
    }
    draft.node.querySelector('.text').textContent = text;
  }

  /** Removes drafts by a speaker (their message arrived). */
  clearSpeaker(speakerName) {
    for (const [key, draft] of this.drafts) if (draft.speakerName === speakerName) this.remove(key);
  }

  /** Keeps only the drafts in `keys` among the local previews. */
  keepPreviews(keys) {
    for (const key of [...this.drafts.keys()]) if (key.startsWith('preview:') && !keys.has(key)) this.remove(key);
  }

  remove(key) {
    this.drafts.get(key)?.node.remove();
    this.drafts.delete(key);
  }
}
