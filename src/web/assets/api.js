// JSON calls to the console's own API.
import { reportConnection } from './connection.js';

/** GET a JSON document; throws an Error with the server's message on failure. */
export async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  return readAnswer(response);
}

/** POST a JSON body and read the JSON answer. */
export async function postJson(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return readAnswer(response);
}

async function readAnswer(response) {
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(body?.error?.message ?? `The console answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return body;
}

/** Opens the live event stream for a page; returns a function that closes it. */
export function openEvents(filter, onEvent, onOpen) {
  const query = new URLSearchParams();
  if (filter.sessionId) query.set('sessionId', filter.sessionId);
  if (filter.roomId) query.set('roomId', filter.roomId);
  const source = new EventSource(`/api/events?${query}`);
  const types = ['session', 'message', 'trace', 'local-room', 'local-delivery', 'local-preview', 'local-preview-removed', 'local-typing', 'local-notice'];
  for (const type of types) source.addEventListener(type, (event) => onEvent(type, JSON.parse(event.data)));
  // After a reconnect (a restart, a sleeping laptop) events may have been missed: the page reloads its data.
  if (onOpen) source.addEventListener('open', onOpen);
  source.addEventListener('open', () => reportConnection(true));
  source.addEventListener('error', () => reportConnection(false));
  return () => source.close();
}
