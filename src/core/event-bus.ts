import type { EventBus, SessionEvent } from './ports.ts';

/** An in-process event bus for live views; a failing listener never disturbs the others. */
export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<(event: SessionEvent) => void>();

  publish(event: SessionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed SSE stream) must not stop the session.
      }
    }
  }

  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
