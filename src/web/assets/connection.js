// Whether the console server can be reached: an indicator in the header, fed by the event stream and by sends.

const listeners = new Set();
let online = true;

/** The last known state. */
export function isOnline() {
  return online;
}

/** Records what a request or the event stream just learned about the server. */
export function reportConnection(reachable) {
  if (reachable === online) return;
  online = reachable;
  for (const listener of listeners) listener(online);
}

/** Calls `listener(online)` on every change; returns a function that stops listening. */
export function onConnectionChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keeps the header's indicator in step: "connected", or "disconnected — will send when back". */
export function bindConnectionIndicator(element) {
  const show = (state) => {
    element.textContent = state ? '● connected' : '● disconnected — will send when back';
    element.classList.toggle('offline', !state);
    element.setAttribute('aria-label', state ? 'Connected to the console server' : 'Disconnected from the console server');
  };
  show(online);
  onConnectionChange(show);
  window.addEventListener('offline', () => reportConnection(false));
}
