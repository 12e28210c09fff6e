/** Serves the console's own files (no CDN: the console works offline). */
import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECURITY_HEADERS } from './http-kit.ts';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The directory of the console's assets. */
export const ASSETS_DIRECTORY = fileURLToPath(new URL('./assets/', import.meta.url));

/** Maintained libraries the pages import, served from their installed browser builds under an asset name. */
export const VENDOR_ASSETS: Readonly<Record<string, { packageName: string; file: string }>> = {
  'markdown-it.js': { packageName: 'markdown-it', file: 'dist/browser/markdown-it.esm.min.mjs' },
};

function vendorBody(packageName: string, file: string): Buffer {
  const root = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  // The source map is not shipped with the console; drop its pointer so browsers do not ask for it.
  return Buffer.from(readFileSync(join(root, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
}

/** The assets, read once at start-up; only known names are ever served (no path traversal possible). */
export class StaticFiles {
  private readonly files = new Map<string, { body: Buffer; type: string }>();

  constructor(directory: string = ASSETS_DIRECTORY) {
    for (const name of readdirSync(directory)) {
      const type = CONTENT_TYPES[extname(name)];
      if (type && /^[a-z0-9][a-z0-9.-]*$/.test(name)) this.files.set(name, { body: readFileSync(join(directory, name)), type });
    }
    for (const [name, source] of Object.entries(VENDOR_ASSETS))
      this.files.set(name, { body: vendorBody(source.packageName, source.file), type: CONTENT_TYPES['.js'] as string });
  }

  /** Sends a file by name; false when there is no such asset. */
  send(response: ServerResponse, name: string, head = false): boolean {
    const file = this.files.get(name);
    if (!file) return false;
    response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': file.type, 'Content-Length': String(file.body.length), 'Cache-Control': 'no-cache' });
    response.end(head ? undefined : file.body);
    return true;
  }
}
