// Messages the person wrote while the server could not be reached: kept (also across a reload) and sent in
// order as soon as it answers again. Nothing a person typed is lost to a dropped connection.
import { postJson } from './api.js';
import { onConnectionChange, reportConnection } from './connection.js';

const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

function storageKey(roomId) {
  return `brainstorm-outbox:${roomId}`;
}

function load(roomId) {
  try {
    return JSON.parse(localStorage.getItem(storageKey(roomId)) ?? '[]');
  } catch {
    return [];
  }
}

function save(roomId, items) {
  try {
    localStorage.setItem(storageKey(roomId), JSON.stringify(items));
  } catch {
    // Storage full or blocked: the queue still lives in memory for this page.
  }
}

/** True for "the server did not answer" (a network error), false for an answer that refused the message. */
export function isUnreachable(error) {
  return error instanceof TypeError || error?.status === undefined || error.status === 502 || error.status === 503 || error.status === 504;
}

/**
 * A room's outbox. `send(item)` posts one message and returns the server's answer; `onReply` shows it;
 * `onChange(count)` says how many are waiting; `onRefused(item)` is told of a message the server refused (its answer
 * says so, or it refused the request), so its text can go back to the person.
 */
export function createOutbox(roomId, { send, onReply, onChange, onRefused = () => undefined }) {
  let items = load(roomId);
  let attempt = 0;
  let timer = null;
  let flushing = false;

  const changed = () => {
    save(roomId, items);
    onChange(items.length);
  };

  async function flush() {
    if (flushing) return;
    flushing = true;
    clearTimeout(timer);
    try {
      while (items.length > 0) {
        const [next] = items;
        try {
          const answer = await send(next);
          reportConnection(true);
          items = items.slice(1);
          attempt = 0;
          changed();
          if (answer?.reply) onReply(answer.reply.content, { buttons: answer.reply.buttons });
          if (answer?.reply?.notPosted) onRefused(next);
        } catch (error) {
          if (!isUnreachable(error)) {
            items = items.slice(1);
            changed();
            onReply(`${error.message} (your message: “${next.content.slice(0, 200)}”)`);
            onRefused(next);
            continue;
          }
          reportConnection(false);
          timer = setTimeout(flush, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
          attempt += 1;
          return;
        }
      }
    } finally {
      flushing = false;
    }
  }

  const stop = onConnectionChange((online) => online && flush());
  window.addEventListener('online', flush);
  if (items.length > 0) {
    onChange(items.length);
    flush();
  }
  return {
    /** Queues a message and tries to send it now. */
    enqueue(content, name) {
      // The id travels with every resend: the server acts on a message once, even if an answer was lost.
      items = [...items, { content, name, clientId: crypto.randomUUID(), queuedAt: Date.now() }];
      changed();
      return flush();
    },
    pending: () => items.length,
    close() {
      stop();
      clearTimeout(timer);
      window.removeEventListener('online', flush);
    },
  };
}

export { postJson };
