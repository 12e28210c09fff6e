/** Server-sent events: the services' EventBus and the local channel, filtered per page. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventBus, SessionEvent } from '../core/ports.ts';
import { SECURITY_HEADERS } from './http-kit.ts';
import type { LocalChannelEvent, LocalTransport } from './local-transport.ts';

/** What a page listens to: one session and/or one room, or everything (the lists). */
export interface StreamFilter {
  sessionId: string | null;
  roomId: string | null;
}

/** True when a session event concerns the filtered page. */
export function sessionEventMatches(event: SessionEvent, filter: StreamFilter): boolean {
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

/** The open event streams; closes them all on stop. */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();

  constructor(
    private readonly events: EventBus,
    private readonly localTransport: LocalTransport | undefined,
    private readonly heartbeatMs: number,
  ) {}

  /** Answers a request with an event stream until the page goes away. */
  serve(request: IncomingMessage, response: ServerResponse, filter: StreamFilter): void {
    response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    response.write('retry: 2000\n\n');
    const send = (type: string, data: unknown) => response.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    const unsubscribers = [
      this.events.subscribe((event) => {
        if (sessionEventMatches(event, filter)) send(event.type, event);
      }),
      this.localTransport?.subscribe((event) => {
        if (localEventMatches(event, filter)) send(`local-${event.type}`, event);
      }) ?? (() => undefined),
    ];
    // Proxies drop idle connections; a comment line now and then keeps the stream open.
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), this.heartbeatMs);
    heartbeat.unref();
    this.open.add(response);
    const close = () => {
      clearInterval(heartbeat);
      for (const unsubscribe of unsubscribers) unsubscribe();
      this.open.delete(response);
    };
    request.on('close', close);
    response.on('close', close);
  }

  /** Ends every open stream (server stop). */
  closeAll(): void {
    for (const response of this.open) response.end();
    this.open.clear();
  }
}
