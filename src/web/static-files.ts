/** Serves the console's own files (no CDN: the console works offline). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';

/** The directory of the console's assets. */
export const ASSETS_DIRECTORY = fileURLToPath(new URL('./assets/', import.meta.url));

/** Maintained libraries the pages import, served from their installed browser builds under an asset name. */
export const VENDOR_ASSETS: Readonly<Record<string, { packageName: string; file: string }>> = {
  'markdown-it.js': { packageName: 'markdown-it', file: 'dist/browser/markdown-it.esm.min.mjs' },
};

/** Asset names: lower-case, no leading dot, no slash (so no path traversal), of the types the console ships. */
const ASSET_NAME = '[a-z0-9][a-z0-9.-]*\\.(?:html|js|css|svg|png|ico)';

/**
 * Files change with the code, so the browser asks again each time (a cheap 304 later). Set on the answer itself:
 * the node-server serveStatic calls `onFound` after building its response, so headers set there are lost.
 */
const revalidate: MiddlewareHandler = createMiddleware(async (c, next) => {
  await next();
  if (c.res.status === 200) c.res.headers.set('Cache-Control', 'no-cache');
});

function vendorBody(packageName: string, file: string): string {
  const root = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  // The source map is not shipped with the console; drop its pointer so browsers do not ask for it.
  return readFileSync(join(root, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

/**
 * Registers the pages' files: `/`, `/assets/<name>`, `/favicon.ico`. They are read from disk per request
 * (serveStatic); the vendor builds are rewritten (no source map pointer), so those are read once, when first asked.
 */
export function registerStaticFiles(app: Hono): void {
  const vendorBodies = new Map<string, string>();
  for (const [name, source] of Object.entries(VENDOR_ASSETS)) {
    app.get(`/assets/${name}`, revalidate, (c) => {
      const body = vendorBodies.get(name) ?? vendorBody(source.packageName, source.file);
      vendorBodies.set(name, body);
      return c.body(body, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    });
  }
  app.get('/', revalidate, serveStatic({ root: ASSETS_DIRECTORY, path: 'index.html' }));
  app.get('/index.html', revalidate, serveStatic({ root: ASSETS_DIRECTORY, path: 'index.html' }));
  app.get('/favicon.ico', revalidate, serveStatic({ root: ASSETS_DIRECTORY, path: 'favicon.svg' }));
  const fromAssets = serveStatic({ root: ASSETS_DIRECTORY, rewriteRequestPath: (path) => path.slice('/assets'.length) });
  app.get(`/assets/:name{${ASSET_NAME}}`, revalidate, fromAssets);
}
