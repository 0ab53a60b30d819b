/**
 * The built playground served over HTTP on the server's own port: `GET /` and the playground's
 * files (index.html, main.js, worker.js, the CSS), read from one directory and nothing outside it.
 * README.md (in this folder) documents it.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The playground's build in the repository (`npm run docs` or `npm run playground` writes it). */
export const DEFAULT_PLAYGROUND_DIR = fileURLToPath(new URL('../../../docs/api/playground', import.meta.url));

/** Content types by file extension; a file of any other kind is not served. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

const NO_BUILD_PAGE = (dir: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>meeplekit: the playground is not built</title></head>
<body>
<h1>The playground is not built</h1>
<p>This server serves the docs playground from <code>${escapeHtml(dir)}</code>, which holds no <code>index.html</code>.</p>
<p>Build it at the repository's root, then reload this page:</p>
<pre>npm run docs          # the whole site, the playground included
npx tsx scripts/build-playground.ts   # or just the playground</pre>
<p>Or point the server at another build with <code>MEEPLEKIT_PLAYGROUND=/path/to/playground npm start</code>.
The WebSocket protocol works without it.</p>
</body></html>
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The file a URL path names under `root`, or why there is none. Only plain names of letters,
 * digits, `.`, `_` and `-` separated by `/` are accepted: no `..` segment, no encoded separator,
 * no backslash, no NUL, no hidden file; `/` is `index.html`.
 */
export function resolveStaticPath(root: string, urlPath: string): { readonly ok: true; readonly file: string } | { readonly ok: false } {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return { ok: false };
  }
  if (path === '/' || path === '') path = '/index.html';
  const segments = path.split('/').slice(1);
  if (segments.length === 0 || !path.startsWith('/')) return { ok: false };
  for (const segment of segments) {
    if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment) || segment.includes('..')) return { ok: false };
  }
  const base = resolve(root);
  const file = resolve(base, ...segments);
  if (!file.startsWith(base + sep)) return { ok: false };
  return { ok: true, file };
}

/**
 * Answers a GET or HEAD request with a file of the playground's build at `root`: 200 with its
 * content type; 400 for a path that tries to leave the directory; 404 for a missing file, with a
 * page saying how to build the playground when the build itself is missing.
 */
export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The path as sent (new URL would read '//x/y' as a host and a path).
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  const search = q < 0 ? '' : raw.slice(q);
  const found = resolveStaticPath(root, pathname);
  if (pathname === '/' && search === '' && req.method === 'GET') {
    // The page at / plays through this server: its address is given to the page, which then
    // offers to create a game here (or opens a seat's link: ?server=...&game=...&seat=...).
    const host = req.headers.host ?? '';
    if (/^[A-Za-z0-9.:[\]-]{1,255}$/.test(host)) {
      const secure = req.headers['x-forwarded-proto'] === 'https';
      res.writeHead(302, { location: `/?${new URLSearchParams({ server: `${secure ? 'wss' : 'ws'}://${host}` })}` }).end();
      return;
    }
  }
  if (!found.ok) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('bad path\n');
    return;
  }
  const type = CONTENT_TYPES[extname(found.file).toLowerCase()];
  const body = type === undefined ? null : await readFile(found.file).catch(() => null);
  if (body === null || type === undefined) {
    if (pathname === '/favicon.ico') {
      // Browsers ask for it on every page: no icon is no error.
      res.writeHead(204).end();
      return;
    }
    const built = await stat(resolve(root, 'index.html')).then((s) => s.isFile(), () => false);
    if (!built) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : NO_BUILD_PAGE(root));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : 'not found\n');
    }
    return;
  }
  res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
