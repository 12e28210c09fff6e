// The person's side of a local room: a message box (every ! command works here too) and private replies.
import { postJson } from './api.js';
import { createOutbox } from './outbox.js';
import { h } from './dom.js';
import { personName } from './person.js';

const COMMANDS =
  '!approve · !pause · !continue · !stop · !status · !summary · !record · !steps · !done <n> · !ideas · !focus [what] · !refresh · !explore <topic> · !preset [name] · !help (all of them)';

/** Builds the composer of a room; `onReply` shows a reply only the person sees. */
export function composer(roomId, onReply) {
  // No maxlength: a browser cuts a longer paste silently. The server says how long is too long, and a refused
  // message comes back here (`onRefused`).
  const input = h('textarea', {
    id: 'message-input',
    rows: 2,
    placeholder: 'Say something ("Grok, …" asks Grok alone), answer the Planner, or type a command such as !approve',
  });
  const button = h('button', { type: 'submit', id: 'send-message' }, 'Send');
  const form = h('form', { class: 'composer', id: 'composer' }, input, button, h('p', { class: 'muted commands' }, COMMANDS));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  const waiting = h('p', { class: 'muted outbox-status', role: 'status', hidden: true });
  form.append(waiting);
  const outbox = createOutbox(roomId, {
    send: (item) => postJson(`/api/rooms/${encodeURIComponent(roomId)}/messages`, { content: item.content, name: item.name, clientId: item.clientId }),
    onReply,
    // Refused, nothing of it kept: back in the box to be changed, unless the person is already writing something else.
    onRefused: (item) => {
      if (input.value.trim() !== '') return;
      input.value = item.content;
      input.focus();
    },
    onChange: (count) => {
      waiting.hidden = count === 0;
      waiting.textContent =
        count === 1 ? '1 message waiting: disconnected — will send when back.' : `${count} messages waiting: disconnected — will send when back.`;
    },
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const content = input.value.trim();
    if (!content) return;
    // The text leaves the box only into the outbox, which keeps it until the server has it.
    input.value = '';
    await outbox.enqueue(content, personName());
  });
  return form;
}

/**
 * Runs a command as the person (the approve button, a "Done n" button) and shows its reply as a note; resolves with
 * the reply (null when the request failed: the note says why).
 */
export async function runCommand(roomId, command, onReply, args = '') {
  try {
    const answer = await postJson(`/api/rooms/${encodeURIComponent(roomId)}/commands`, { command, args, name: personName() });
    if (answer.reply) onReply(answer.reply.content, { buttons: answer.reply.buttons });
    return answer.reply ?? null;
  } catch (error) {
    onReply(error.message);
    return null;
  }
}
