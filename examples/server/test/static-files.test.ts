/**
 * The playground's build served over HTTP on the server's port: `/` sends the page off to play
 * through this server, the files come with their content types, nothing outside the directory is
 * ever read (whatever the path's spelling), and a missing build gives a page saying how to build it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server.js';
import { SqliteStore } from '../src/sqlite-store.js';
import { resolveStaticPath } from '../src/static-files.js';

const dir = mkdtempSync(join(tmpdir(), 'meeplekit-static-'));
const build = join(dir, 'site', 'playground');
const SECRET = 'secret-outside-the-build';
let withBuild: RunningServer;
let withoutBuild: RunningServer;

beforeAll(async () => {
  mkdirSync(join(build, 'assets'), { recursive: true });
  writeFileSync(join(build, 'index.html'), '<!doctype html><title>playground</title>');
  writeFileSync(join(build, 'main.js'), 'console.log(1);');
  writeFileSync(join(build, 'worker.js'), 'self.onmessage = () => {};');
  writeFileSync(join(build, 'style.css'), 'body { margin: 0 }');
  writeFileSync(join(build, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(build, 'notes.bin'), 'not a web file');
  writeFileSync(join(build, '.hidden'), SECRET);
  // Files next to and above the build, which a path with .. would reach.
  writeFileSync(join(dir, 'site', 'package.json'), SECRET);
  writeFileSync(join(dir, 'package.json'), SECRET);
  mkdirSync(join(dir, 'site', 'playground-other'));
  writeFileSync(join(dir, 'site', 'playground-other', 'index.html'), SECRET);
  withBuild = await startServer({ store: new SqliteStore(join(dir, 'a.sqlite')), staticDir: build, log: () => {} });
  withoutBuild = await startServer({ store: new SqliteStore(join(dir, 'b.sqlite')), staticDir: join(dir, 'nothing-built'), log: () => {} });
});

afterAll(async () => {
  await withBuild?.close();
  await withoutBuild?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw request: the path is sent exactly as written (fetch would normalise the dots away). */
function get(port: number, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground over HTTP', () => {
  it('/ sends the page to play through this server; the files come with their content types', async () => {
    const port = withBuild.port;
    const root = await get(port, '/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe(`/?${new URLSearchParams({ server: `ws://127.0.0.1:${port}` })}`);
    expect((await get(port, '/', 'GET', { 'x-forwarded-proto': 'https', host: 'games.example:443' })).headers.location).toBe(
      `/?${new URLSearchParams({ server: 'wss://games.example:443' })}`,
    );
    const page = await get(port, root.headers.location as string);
    expect([page.status, page.headers['content-type'], page.body]).toEqual([200, 'text/html; charset=utf-8', '<!doctype html><title>playground</title>']);
    // A seat's link: the query is the page's, the file is index.html.
    expect((await get(port, '/index.html?server=ws://127.0.0.1:1&game=abc&seat=xyz')).body).toContain('<title>playground</title>');
    const types: [string, string][] = [
      ['/main.js', 'text/javascript; charset=utf-8'],
      ['/worker.js', 'text/javascript; charset=utf-8'],
      ['/style.css', 'text/css; charset=utf-8'],
      ['/assets/icon.svg', 'image/svg+xml'],
    ];
    for (const [path, type] of types) {
      const reply = await get(port, path);
      expect([path, reply.status, reply.headers['content-type'], reply.headers['x-content-type-options']]).toEqual([path, 200, type, 'nosniff']);
    }
    const head = await get(port, '/main.js', 'HEAD');
    expect([head.status, head.headers['content-length'], head.body]).toEqual([200, String('console.log(1);'.length), '']);
    expect((await get(port, '/health')).body).toContain('"ok":true');
    // Browsers ask every page's server for an icon: none in the build is no error (204), not a 404.
    expect((await get(port, '/favicon.ico')).status).toBe(204);
  });

  it('refuses every path that leaves the directory, and serves no hidden or unknown kind of file', async () => {
    const port = withBuild.port;
    const attempts = [
      '/../package.json',
      '/../../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/%2E%2E/package.json',
      '/..%2fpackage.json',
      '/..%5cpackage.json',
      '/assets/../../package.json',
      '/./index.html/../../package.json',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      '/index.html%00.js',
      '/../playground-other/index.html',
      '/.hidden',
      '/%2ehidden',
    ];
    for (const path of attempts) {
      const reply = await get(port, path);
      expect([path, reply.status]).toEqual([path, 400]);
      expect(reply.body).not.toContain(SECRET);
    }
    for (const path of ['/notes.bin', '/missing.js', '/assets', '/assets/']) {
      const reply = await get(port, path);
      expect([path, reply.status >= 400]).toEqual([path, true]);
      expect(reply.body).not.toContain(SECRET);
    }
    expect((await get(port, '/missing.js')).status).toBe(404);
    expect((await get(port, '/main.js', 'POST')).status).toBe(404);
  });

  it('a missing build: a 404 page that says how to build the playground', async () => {
    for (const path of ['/?server=ws://x', '/index.html', '/main.js']) {
      const reply = await get(withoutBuild.port, path);
      expect([path, reply.status, reply.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(reply.body).toContain('The playground is not built');
      expect(reply.body).toContain('npm run docs');
      expect(reply.body).toContain('npx tsx scripts/build-playground.ts');
    }
  });

  it('resolveStaticPath accepts plain names under the root only', () => {
    expect(resolveStaticPath('/srv/pg', '/')).toEqual({ ok: true, file: '/srv/pg/index.html' });
    expect(resolveStaticPath('/srv/pg', '/a/b-c_d.js')).toEqual({ ok: true, file: '/srv/pg/a/b-c_d.js' });
    for (const bad of ['/..', '/a/..', '/a//b', '/%', '/a\\b', '/a%00', '/~root', '/.git/config']) expect([bad, resolveStaticPath('/srv/pg', bad).ok]).toEqual([bad, false]);
  });
});
