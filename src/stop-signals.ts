/** The part of `process` the stop signals need (a test hands in its own). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): void;
}

/** Why the process stops: a signal, or the parent that started it exited (see `ParentWatch`). */
export type StopReason = NodeJS.Signals | 'parent_exited';

/**
 * The process that started this one, watched for its exit. `npm start` runs the app under `sh -c`: npm passes a
 * SIGTERM on to that shell, which dies of it without passing it on (npm/npm#4603), so a supervisor that stops
 * `npm start` (a container's `docker stop`, a process manager) would leave the app running, reparented, and kill it
 * ten seconds later without its clean stop. The shell's death shows as a new parent pid (the app is reparented).
 */
export interface ParentWatch {
  /** The parent's pid now (`process.ppid`). */
  parentPid(): number;
  /** Calls `check` every `intervalMs` until the process ends; must not keep it alive. */
  every(intervalMs: number, check: () => void): void;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** How often the parent is looked at: a stop a second late is still a clean one. */
export const PARENT_CHECK_MS = 1000;

/**
 * The first SIGINT or SIGTERM (or, with `parent`, the parent's exit), heard from the moment the process begins to
 * start. One that comes while Brainstorm is still starting does not cut the start short (a data directory half
 * copied, a Discord login half done): the start finishes and then stops cleanly. A second signal ends the process at
 * once, as people expect of a second Ctrl-C; the parent's exit is never that second signal, as npm may both pass a
 * SIGTERM on and exit.
 */
export function listenForStopSignal(source: SignalSource = process, parent?: ParentWatch): Promise<StopReason> {
  let signalled = false;
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) {
      source.on(signal, () => {
        if (signalled) return source.exit(signal === 'SIGINT' ? 130 : 143);
        signalled = true;
        resolve(signal);
      });
    }
    if (!parent) return;
    const startedBy = parent.parentPid();
    parent.every(PARENT_CHECK_MS, () => {
      if (parent.parentPid() !== startedBy) resolve('parent_exited');
    });
  });
}

/** This process's parent, watched when npm started it (see `ParentWatch`); undefined otherwise. */
export function npmParentWatch(startedByNpm: boolean): ParentWatch | undefined {
  if (!startedByNpm) return undefined;
  return {
    parentPid: () => process.ppid,
    every: (intervalMs, check) => void setInterval(check, intervalMs).unref(),
  };
}
