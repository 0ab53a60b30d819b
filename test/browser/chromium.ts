/**
 * What the browser tests and the screenshot scripts share: Debian's Chromium launched through
 * playwright-core, and a static server for a built site.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** The Chromium binary: `MEEPLEKIT_CHROMIUM`, else Debian's. */
export const CHROMIUM = process.env['MEEPLEKIT_CHROMIUM'] ?? '/usr/bin/chromium';

/** Launches Chromium headless, or explains how to get one when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium) or set MEEPLEKIT_CHROMIUM`);
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** The content types a built site's files are served with; any other file is a 404. */
const TYPES: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Serves the files of `dir` (`/` is index.html) on a free port of 127.0.0.1; nothing outside
 * `dir`, and nothing but HTML, JavaScript and CSS.
 */
export async function serveDirectory(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const file = join(dir, new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html'));
    if (!file.startsWith(dir) || !existsSync(file) || TYPES[extname(file)] === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)]! }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
