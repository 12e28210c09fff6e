// Refreshes that run one at a time: a page asked to refresh while it refreshes does so once more afterwards.

/**
 * Wraps `task` so that calls never overlap: a call during a run asks for one more run after it (however many came),
 * at least `gapMs` after the last one started; `isCurrent` false (the page was left) skips what is still due.
 */
export function coalesced(task, { gapMs = 0, isCurrent = () => true } = {}) {
  let running = null;
  let again = false;
  let lastStart = 0;
  const request = () => {
    if (running) return void (again = true);
    const wait = Math.max(0, lastStart + gapMs - Date.now());
    running = (wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve())
      .then(() => {
        lastStart = Date.now();
        return isCurrent() ? task() : undefined;
      })
      .catch(() => undefined)
      .finally(() => {
        running = null;
        if (again && isCurrent()) {
          again = false;
          request();
        }
      });
  };
  return request;
}
