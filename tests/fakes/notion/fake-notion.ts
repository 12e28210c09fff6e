/**
 * A fake Notion REST API on 127.0.0.1 that the real `@notionhq/client` talks to (`baseUrl`): pages,
 * databases and data sources (API 2025-09-03), blocks, the markdown endpoints, Notion's error shape,
 * its request limits (400 validation_error), 3 requests/s per token (429 rate_limited + Retry-After),
 * and injectable outages (503 service_unavailable, by time or by count). Pages a person trashed answer writes
 * with validation_error and still retrieve (in_trash); pages deleted for good (or unshared) answer 404. Pages name who
 * edited them last (`last_edited_by`: the integration's bot user of `users/me`, or a person through `store.editAsPerson`).
 * Time comes from an injected clock so rate limits are deterministic.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/core/clock.ts';
import { checkChildren, checkProperties, LimitViolation, NOTION_LIMITS } from './block-limits.ts';
import { fakeBlocksToMarkdown, markdownToFakeBlocks, type FakeBlockContent } from './fake-markdown.ts';
import { FakeNotionError, NotionStore } from './notion-store.ts';

type JsonObject = Record<string, unknown>;

/** One request the fake answered. */
export interface FakeNotionRequest {
  method: string;
  path: string;
  status: number;
  code: string | null;
  at: Date;
  bytes: number;
}

/** Options of the fake. */
export interface FakeNotionOptions {
  clock: Clock;
  /** Integration tokens it accepts (Bearer). */
  tokens?: string[];
  requestsPerSecond?: number;
  /** Title of the page shared with the integration, seeded at start. */
  parentPageTitle?: string;
}

/** A running fake Notion. */
export interface FakeNotion {
  url: string;
  store: NotionStore;
  /** Id of the seeded parent page. */
  parentPageId: string;
  requests: FakeNotionRequest[];
  /** Requests that broke a documented limit (400 validation_error for size, count or nesting). */
  readonly violations: number;
  readonly rateLimited: number;
  /** Answers every request with 503 service_unavailable for `milliseconds` of the clock. */
  startOutage(milliseconds: number): void;
  endOutage(): void;
  /** Answers the next `count` requests with 503 service_unavailable (whatever the clock says). */
  failNext(count: number): void;
  /** When true, the markdown endpoints refuse, so clients must use blocks. */
  refuseMarkdown: boolean;
  close(): Promise<void>;
}

const ROUTES: { method: string; pattern: RegExp; name: string }[] = [
  { method: 'POST', pattern: /^\/v1\/pages$/, name: 'createPage' },
  { method: 'GET', pattern: /^\/v1\/pages\/([^/]+)\/markdown$/, name: 'getMarkdown' },
  { method: 'PATCH', pattern: /^\/v1\/pages\/([^/]+)\/markdown$/, name: 'updateMarkdown' },
  { method: 'GET', pattern: /^\/v1\/pages\/([^/]+)$/, name: 'getPage' },
  { method: 'PATCH', pattern: /^\/v1\/pages\/([^/]+)$/, name: 'updatePage' },
  { method: 'POST', pattern: /^\/v1\/databases$/, name: 'createDatabase' },
  { method: 'GET', pattern: /^\/v1\/databases\/([^/]+)$/, name: 'getDatabase' },
  { method: 'GET', pattern: /^\/v1\/data_sources\/([^/]+)$/, name: 'getDataSource' },
  { method: 'PATCH', pattern: /^\/v1\/data_sources\/([^/]+)$/, name: 'updateDataSource' },
  { method: 'POST', pattern: /^\/v1\/data_sources\/([^/]+)\/query$/, name: 'queryDataSource' },
  { method: 'GET', pattern: /^\/v1\/blocks\/([^/]+)\/children$/, name: 'listChildren' },
  { method: 'PATCH', pattern: /^\/v1\/blocks\/([^/]+)\/children$/, name: 'appendChildren' },
  { method: 'GET', pattern: /^\/v1\/blocks\/([^/]+)$/, name: 'getBlock' },
  { method: 'DELETE', pattern: /^\/v1\/blocks\/([^/]+)$/, name: 'deleteBlock' },
  { method: 'GET', pattern: /^\/v1\/users\/(me)$/, name: 'getOwnUser' },
];

/** Blocks of a request `children` array, in the fake's stored form. */
function toContent(children: unknown): FakeBlockContent[] {
  if (!Array.isArray(children)) return [];
  return children.map((block: JsonObject) => {
    const type = typeof block.type === 'string' ? block.type : (Object.keys(block).find((key) => key !== 'object') ?? 'paragraph');
    const { children: nested, ...payload } = (block[type] ?? {}) as JsonObject;
    return { type, payload, children: toContent(nested) };
  });
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeNotion(options: FakeNotionOptions): Promise<FakeNotion> {
  const clock = options.clock;
  const tokens = new Set(options.tokens ?? ['secret_test_token']);
  const limit = options.requestsPerSecond ?? 3;
  const store = new NotionStore(() => clock.now());
  const parentPageId = store.seedPage(options.parentPageTitle ?? 'Brainstorm');
  const recent = new Map<string, number[]>();
  const requests: FakeNotionRequest[] = [];
  let violations = 0;
  let rateLimited = 0;
  let outageUntil = 0;
  let failuresLeft = 0;

  const handlers: Record<string, (id: string, body: JsonObject, query: URLSearchParams) => JsonObject> = {
    createPage(_id, body) {
      checkProperties(body.properties);
      if (body.markdown !== undefined) {
        if (fake.refuseMarkdown) throw new FakeNotionError(400, 'validation_error', 'body failed validation: body.markdown should be not present.');
        if (body.children !== undefined)
          throw new FakeNotionError(400, 'validation_error', 'body failed validation: body.children and body.markdown cannot both be present.');
        return store.createPage(body.parent as JsonObject, body.properties as JsonObject, markdownToFakeBlocks(String(body.markdown)));
      }
      if (body.children !== undefined) checkChildren(body.children);
      return store.createPage((body.parent ?? {}) as JsonObject, body.properties as JsonObject, toContent(body.children));
    },
    getMarkdown(id) {
      if (fake.refuseMarkdown) throw new FakeNotionError(400, 'invalid_request_url', 'Invalid request URL.');
      return { object: 'page_markdown', id, markdown: fakeBlocksToMarkdown(store.pageContent(id)), truncated: false, unknown_block_ids: [] };
    },
    updateMarkdown(id, body) {
      if (fake.refuseMarkdown) throw new FakeNotionError(400, 'invalid_request_url', 'Invalid request URL.');
      const replace = body.replace_content as JsonObject | undefined;
      if (body.type !== 'replace_content' || !replace || typeof replace.new_str !== 'string')
        throw new FakeNotionError(400, 'validation_error', 'body failed validation: only replace_content is supported by this fake.');
      store.replacePageContent(id, markdownToFakeBlocks(replace.new_str), replace.allow_deleting_content === true);
      return { object: 'page_markdown', id, markdown: fakeBlocksToMarkdown(store.pageContent(id)), truncated: false, unknown_block_ids: [] };
    },
    getPage: (id) => store.retrievePage(id),
    updatePage(id, body) {
      checkProperties(body.properties);
      return store.updatePage(id, body);
    },
    createDatabase: (_id, body) => store.createDatabase(body),
    getDatabase: (id) => store.retrieveDatabase(id),
    getDataSource: (id) => store.retrieveDataSource(id),
    updateDataSource: (id, body) => store.updateDataSource(id, body),
    queryDataSource: (id, body) => store.queryDataSource(id, body),
    listChildren: (id, _body, query) => store.listChildren(id, query.get('start_cursor'), query.get('page_size')),
    appendChildren(id, body) {
      checkChildren(body.children);
      return store.appendChildren(id, toContent(body.children));
    },
    getBlock: (id) => store.retrieveBlock(id),
    deleteBlock: (id) => store.deleteBlock(id),
    getOwnUser: () => ({
      object: 'user',
      id: store.botUserId,
      name: 'Brainstorm',
      avatar_url: null,
      type: 'bot',
      bot: { owner: { type: 'workspace', workspace: true }, workspace_name: 'Test workspace' },
    }),
  };

  function admit(token: string): number {
    const now = clock.now().getTime();
    const window = (recent.get(token) ?? []).filter((at) => at > now - 1000);
    if (window.length >= limit) {
      recent.set(token, window);
      return Math.max(1, Math.ceil(((window[0] ?? now) + 1000 - now) / 1000));
    }
    window.push(now);
    recent.set(token, window);
    return 0;
  }

  function answer(request: IncomingMessage, text: string): { status: number; body: JsonObject; headers: Record<string, string> } {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      throw new FakeNotionError(503, 'service_unavailable', 'Notion is unavailable. Please try again later.');
    }
    if (clock.now().getTime() < outageUntil) throw new FakeNotionError(503, 'service_unavailable', 'Notion is unavailable. Please try again later.');
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!tokens.has(token)) throw new FakeNotionError(401, 'unauthorized', 'API token is invalid.');
    if (!request.headers['notion-version'])
      throw new FakeNotionError(400, 'missing_version', 'Notion-Version header failed validation: Notion-Version header should be defined.');
    const retryAfter = admit(token);
    if (retryAfter > 0) {
      rateLimited += 1;
      return {
        status: 429,
        body: { object: 'error', status: 429, code: 'rate_limited', message: 'You have been rate limited. Please try again in a few minutes.' },
        headers: { 'retry-after': String(retryAfter) },
      };
    }
    if (Buffer.byteLength(text) > NOTION_LIMITS.payloadBytes) throw new LimitViolation(`Request body too large: at most ${NOTION_LIMITS.payloadBytes} bytes.`);
    const route = ROUTES.find((candidate) => candidate.method === request.method && candidate.pattern.test(url.pathname));
    if (!route) throw new FakeNotionError(400, 'invalid_request_url', 'Invalid request URL.');
    let body: JsonObject = {};
    try {
      body = text ? (JSON.parse(text) as JsonObject) : {};
    } catch {
      throw new FakeNotionError(400, 'invalid_json', 'Error parsing JSON body.');
    }
    const id = decodeURIComponent(route.pattern.exec(url.pathname)?.[1] ?? '');
    const handler = handlers[route.name];
    if (!handler) throw new FakeNotionError(400, 'invalid_request_url', 'Invalid request URL.');
    return { status: 200, body: handler(id, body, url.searchParams), headers: {} };
  }

  function respond(request: IncomingMessage, response: ServerResponse, text: string): void {
    let result: { status: number; body: JsonObject; headers: Record<string, string> };
    try {
      result = answer(request, text);
    } catch (error) {
      if (error instanceof LimitViolation) violations += 1;
      const status = error instanceof FakeNotionError ? error.status : error instanceof LimitViolation ? 400 : 500;
      const code = error instanceof FakeNotionError ? error.code : error instanceof LimitViolation ? 'validation_error' : 'internal_server_error';
      const message = error instanceof Error ? error.message : 'Unexpected error.';
      result = { status, body: { object: 'error', status, code, message, request_id: `req-${requests.length + 1}` }, headers: {} };
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      status: result.status,
      code: result.status === 200 ? null : String(result.body.code),
      at: clock.now(),
      bytes: Buffer.byteLength(text),
    });
    response.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
    response.end(JSON.stringify(result.body));
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => respond(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeNotion = {
    url: `http://127.0.0.1:${port}`,
    store,
    parentPageId,
    requests,
    get violations() {
      return violations;
    },
    get rateLimited() {
      return rateLimited;
    },
    startOutage(milliseconds) {
      outageUntil = clock.now().getTime() + milliseconds;
    },
    endOutage() {
      outageUntil = 0;
    },
    failNext(count) {
      failuresLeft = count;
    },
    refuseMarkdown: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
