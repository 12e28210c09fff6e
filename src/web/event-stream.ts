/** `GET /api/events`: live events over SSE, from the services' EventBus and the local channel, filtered per page. */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { EventBus, SessionEvent } from '../core/ports.ts';
import type { LocalChannelEvent, LocalTransport } from './local-transport.ts';

/** What a page listens to: one session and/or one room, or everything (the lists). */
export interface StreamFilter {
  sessionId: string | null;
  roomId: string | null;
}

/** True when a session event concerns the filtered page. */
export function sessionEventMatches(event: SessionEvent, filter: StreamFilter): boolean {
  // Control events are for services; no page shows them.
  if (event.type === 'session_ended' || event.type === 'session_paused' || event.type === 'session_resumed') return false;
  if (filter.sessionId === null) return filter.roomId === null || event.type === 'session';
  switch (event.type) {
    case 'session':
      return event.session.id === filter.sessionId;
    case 'message':
      return event.message.sessionId === filter.sessionId;
    case 'trace':
      return event.sessionId === filter.sessionId;
  }
}

/** True when a local channel event concerns the filtered page. */
export function localEventMatches(event: LocalChannelEvent, filter: StreamFilter): boolean {
  if (event.type === 'room') return true;
  const roomId = event.type === 'delivery' ? event.delivery.roomId : event.type === 'preview' ? event.preview.roomId : event.roomId;
  return filter.roomId === null ? filter.sessionId === null : filter.roomId === roomId;
}

/** Where the live events come from, and when streams end. */
export interface EventStreamSources {
  events: EventBus;
  localTransport: LocalTransport | undefined;
  /** How often an idle stream sends a keep-alive line. */
  heartbeatMs: number;
  /** Every open stream ends when this aborts (server stop). */
  shutdown?: AbortSignal | undefined;
}

/** The `/api/events` handler: an event stream until the page goes away or the server stops. */
export function eventStreamHandler(sources: EventStreamSources): (c: Context) => Response {
  return (c) => {
    const filter: StreamFilter = { sessionId: c.req.query('sessionId') ?? null, roomId: c.req.query('roomId') ?? null };
    const response = streamSSE(c, (stream) => follow(stream, sources, filter));
    response.headers.set('Content-Type', 'text/event-stream; charset=utf-8');
    response.headers.set('Cache-Control', 'no-store');
    return response;
  };
}

async function follow(stream: SSEStreamingApi, sources: EventStreamSources, filter: StreamFilter): Promise<void> {
  const send = (type: string, data: unknown) => void stream.writeSSE({ event: type, data: JSON.stringify(data) });
  // Subscribed before the first line goes out: a page that has read it misses nothing after.
  const unsubscribers = [
    sources.events.subscribe((event) => {
      if (sessionEventMatches(event, filter)) send(event.type, event);
    }),
    sources.localTransport?.subscribe((event) => {
      if (localEventMatches(event, filter)) send(`local-${event.type}`, event);
    }) ?? (() => undefined),
  ];
  void stream.write('retry: 2000\n\n');
  // Proxies drop idle connections; a comment line now and then keeps the stream open.
  const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n'), sources.heartbeatMs);
  heartbeat.unref();
  try {
    await untilEnded(stream, sources.shutdown);
  } finally {
    clearInterval(heartbeat);
    for (const unsubscribe of unsubscribers) unsubscribe();
  }
}

function untilEnded(stream: SSEStreamingApi, shutdown: AbortSignal | undefined): Promise<void> {
  if (!shutdown) return new Promise((resolve) => stream.onAbort(resolve));
  if (shutdown.aborted) return Promise.resolve();
  // Removed again when the page goes first: the server's signal outlives many streams.
  const ended = new AbortController();
  return new Promise<void>((resolve) => {
    stream.onAbort(resolve);
    shutdown.addEventListener('abort', () => resolve(), { once: true, signal: ended.signal });
  }).finally(() => ended.abort());
}
