/** The part of `process` the stop signals need (a test hands in its own). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): void;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * The first SIGINT or SIGTERM, heard from the moment the process begins to start. One that comes while Brainstorm is
 * still starting does not cut the start short (a data directory half copied, a Discord login half done): the start
 * finishes and then stops cleanly. A second signal ends the process at once, as people expect of a second Ctrl-C.
 */
export function listenForStopSignal(source: SignalSource = process): Promise<NodeJS.Signals> {
  let heard = false;
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) {
      source.on(signal, () => {
        if (heard) return source.exit(signal === 'SIGINT' ? 130 : 143);
        heard = true;
        resolve(signal);
      });
    }
  });
}
