import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../../src/web/access-guard.ts';
import { localEventMatches, sessionEventMatches } from '../../../src/web/event-stream.ts';

describe('isLoopbackHost', () => {
  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '192.168.1.4', '::', 'example.com'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });
});

describe('event filters', () => {
  const trace = (sessionId: string) => ({ type: 'trace' as const, sessionId, traceId: 't' });
  it('sends a session page only its own session events; the lists get everything', () => {
    expect(sessionEventMatches(trace('a'), { sessionId: 'a', roomId: null })).toBe(true);
    expect(sessionEventMatches(trace('b'), { sessionId: 'a', roomId: null })).toBe(false);
    expect(sessionEventMatches(trace('b'), { sessionId: null, roomId: null })).toBe(true);
  });

  it("sends a room page only its room's local events", () => {
    const notice = (roomId: string) => ({ type: 'notice' as const, roomId, content: 'x', at: '' });
    expect(localEventMatches(notice('r1'), { sessionId: 'a', roomId: 'r1' })).toBe(true);
    expect(localEventMatches(notice('r2'), { sessionId: 'a', roomId: 'r1' })).toBe(false);
    expect(localEventMatches(notice('r2'), { sessionId: 'a', roomId: null })).toBe(false);
  });
});
