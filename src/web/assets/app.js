// The console's entry: status banners, the name field, and a hash router over the pages.
import { getJson } from './api.js';
import { currentRoute, h } from './dom.js';
import { bindPersonField } from './person.js';
import { renderDocumentPage } from './document-page.js';
import { renderRoomPage } from './room-page.js';
import { bindCopyButtons, bindThemeToggle } from './theme.js';
import { bindConnectionIndicator } from './connection.js';
import { renderSessionPage } from './session-page.js';
import { renderSessionsPage } from './sessions-page.js';
import { renderTracePage } from './trace-page.js';
import { renderTracesPage } from './traces-page.js';

const state = { status: null, cleanup: null };

async function fetchStatus() {
  try {
    return await getJson('/api/status');
  } catch {
    return { demoMode: false, localChannel: false, ready: false, demoNotice: null };
  }
}

function showStatus(status) {
  document.getElementById('starting-banner').hidden = status.ready;
  const demo = document.getElementById('demo-banner');
  demo.hidden = !status.demoMode;
  demo.textContent = status.demoNotice ?? '';
  const notices = document.getElementById('notice-banner');
  notices.hidden = !status.notices?.length;
  notices.textContent = (status.notices ?? []).join(' ');
  if (!status.ready) setTimeout(() => fetchStatus().then(showStatus), 1000);
}

function pageFor(parts) {
  const [first, second, third, fourth] = parts;
  if (first === 'sessions' && second && third === 'documents') return (main) => renderDocumentPage(main, second, fourth);
  if (first === 'sessions' && second) return (main, context) => renderSessionPage(main, second, context);
  if (first === 'rooms' && second) return (main, context) => renderRoomPage(main, second, third === 'm' ? fourth : null, context);
  if (first === 'traces' && second) return (main, context) => renderTracePage(main, second, context);
  if (first === 'traces') return (main, context) => renderTracesPage(main, context);
  return (main, context) => renderSessionsPage(main, context);
}

let routeNumber = 0;

async function route() {
  if (state.cleanup) state.cleanup();
  state.cleanup = null;
  const mine = ++routeNumber;
  const { parts, query } = currentRoute();
  const main = document.getElementById('main');
  main.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  for (const link of document.querySelectorAll('[data-nav]'))
    link.classList.toggle('active', link.dataset.nav === (parts[0] === 'traces' ? 'traces' : 'sessions'));
  try {
    const cleanup = (await pageFor(parts)(main, { status: () => state.status, query, isCurrent: () => mine === routeNumber })) ?? null;
    // A page that finished loading after the person moved on must not keep its live stream open.
    if (mine === routeNumber) state.cleanup = cleanup;
    else if (cleanup) cleanup();
  } catch (error) {
    main.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
  }
}

bindPersonField(document.getElementById('person-name'));
bindThemeToggle(document.getElementById('theme-toggle'));
bindConnectionIndicator(document.getElementById('connection'));
bindCopyButtons(document.body);
window.addEventListener('hashchange', route);
// The status and the first page load side by side; pages that need the status await it.
state.status = fetchStatus();
state.status.then(showStatus);
await route();
