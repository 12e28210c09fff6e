// A local room whose session may still be opening: waits for it, then shows the session page.
import { getJson, openEvents } from './api.js';
import { h } from './dom.js';
import { markdown } from './markdown.js';

function sessionHash(sessionId, externalId) {
  return `#/sessions/${encodeURIComponent(sessionId)}${externalId ? `?external=${encodeURIComponent(externalId)}` : ''}`;
}

/** Renders a room link: goes to its session as soon as it exists; returns the cleanup. */
export async function renderRoomPage(main, roomId, externalId, context) {
  const room = await getJson(`/api/rooms/${encodeURIComponent(roomId)}`);
  if (room.sessionId) {
    location.replace(sessionHash(room.sessionId, externalId));
    return null;
  }
  const notices = h('ul', { class: 'notices' });
  main.replaceChildren(
    h(
      'section',
      { class: 'card' },
      h('h2', {}, room.room.title),
      h('p', { class: 'muted', id: 'room-opening' }, 'The Planner is opening this session…'),
      notices,
    ),
  );
  let checking = false;
  const check = async () => {
    if (checking || !context.isCurrent()) return;
    checking = true;
    try {
      const latest = await getJson(`/api/rooms/${encodeURIComponent(roomId)}`);
      if (latest.sessionId && context.isCurrent()) location.replace(sessionHash(latest.sessionId, externalId));
    } finally {
      checking = false;
    }
  };
  const close = openEvents({}, (type, event) => {
    if (type === 'local-notice' && event.roomId === roomId) notices.append(h('li', { class: 'notice md' }, markdown(event.content)));
    if (type === 'session' || type === 'local-delivery' || type === 'local-room') check();
  });
  // The session may have been created between the first look and the stream opening.
  await check();
  return close;
}
