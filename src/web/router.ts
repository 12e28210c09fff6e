/** A tiny router: method + path pattern with `:name` segments. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route handler receives. */
export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
}

/** A route handler; it writes the answer itself. */
export type RouteHandler = (context: RouteContext) => Promise<void> | void;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/** The result of matching a request against the routes. */
export type RouteMatch = { kind: 'found'; handler: RouteHandler; params: Record<string, string> } | { kind: 'method_not_allowed' } | { kind: 'not_found' };

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] as string;
    const value = actual[index] as string;
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (expected !== value) return null;
  }
  return params;
}

/** Routes registered in order; the first match wins. */
export class Router {
  private readonly routes: Route[] = [];

  /** Adds a route. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method: method.toUpperCase(), segments: split(pattern), handler });
    return this;
  }

  /** Finds the handler of a method and path. */
  match(method: string, path: string): RouteMatch {
    const actual = split(path);
    let pathKnown = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, actual);
      if (!params) continue;
      const allowed = route.method === method || (route.method === 'GET' && method === 'HEAD');
      if (allowed) return { kind: 'found', handler: route.handler, params };
      pathKnown = true;
    }
    return pathKnown ? { kind: 'method_not_allowed' } : { kind: 'not_found' };
  }
}
