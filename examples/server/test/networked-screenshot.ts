/**
 * Takes the picture of a networked game in this folder's README (docs/images/networked-game.png in
 * the repository): the server started on a fresh SQLite file, serving the docs playground's build;
 * a 2-player game of classic with the Tower created over a raw WebSocket; two Chromium contexts,
 * one per seat, each on its seat's link, playing by clicks until seat 0 is deciding where to put a
 * follower, mid-game; the two windows side by side in one picture.
 *
 *   npx tsx test/networked-screenshot.ts [out.png]      (from examples/server)
 *
 * Needs the playground's build (at the repository's root: npx tsx scripts/build-playground.ts, or
 * npm run docs; MEEPLEKIT_PLAYGROUND names another) and Chromium (MEEPLEKIT_CHROMIUM, default
 * /usr/bin/chromium).
 */
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { browserSkipReason, chooser, launchBrowser, PLAYGROUND_DIR, SeatPage, seatLink } from './browser-harness.js';
import { startServerProcess, tempDb } from './server-process.js';

const out = resolve(process.argv[2] ?? fileURLToPath(new URL('../../../docs/images/networked-game.png', import.meta.url)));
const missing = browserSkipReason();
if (missing !== null) throw new Error(missing);

/** Creates a game over a raw WebSocket: its id and the seats' tokens. */
async function createGame(url: string, config: Record<string, unknown>): Promise<{ game: string; tokens: string[] }> {
  const ws = new WebSocket(url);
  const created = await new Promise<Record<string, any>>((done, fail) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Record<string, any>;
      if (m['type'] === 'hello') ws.send(JSON.stringify({ id: 1, type: 'create', config }));
      else if (m['id'] === 1) (m['type'] === 'created' ? done : fail)(m);
    });
    ws.on('error', fail);
  });
  ws.close();
  return { game: created['game'] as string, tokens: (created['seats'] as { token: string }[]).map((s) => s.token) };
}

const db = tempDb();
const server = await startServerProcess({ MEEPLEKIT_DB: db, MEEPLEKIT_PLAYGROUND: PLAYGROUND_DIR });
const browser = await launchBrowser();
try {
  const { game, tokens } = await createGame(server.url, { game: 'classic', expansions: ['tower'], players: 2 });
  const viewport = { width: 900, height: 660 };
  const pages = await Promise.all(tokens.map((token, seat) => SeatPage.open(browser, `seat ${seat}`, seatLink(server.port, game, token), { viewport })));
  const pick = chooser(3);
  for (;;) {
    const st = await Promise.all(pages.map((p) => p.status()));
    const i = st.findIndex((s) => s.state === 'human');
    if (i < 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const version = st[i]!.version!;
    // Mid-game, seat 0 has just placed its tile and chooses where its follower goes.
    if (version >= 40 && i === 0 && (await pages[0]!.page.locator('#choices button[data-move]').count()) > 0) break;
    await pages[i]!.clickMove(pick);
    await Promise.all(pages.map((p) => p.waitVersion(version + 1)));
  }
  // Both windows scrolled to the game (the status line, the board, the decisions, the scores), each as its player sees it.
  for (const p of pages) await p.page.locator('#status').evaluate((el) => (el as unknown as { scrollIntoView(): void }).scrollIntoView());
  const shots = await Promise.all(pages.map((p) => p.page.screenshot()));
  const sheet = await browser.newPage({ viewport: { width: viewport.width * 2 + 24, height: viewport.height + 40 } });
  await sheet.setContent(`<!doctype html><body style="margin:0;background:#444;font:14px sans-serif;color:#fff;display:flex;gap:8px;padding:8px">
    ${shots.map((png, seat) => `<figure style="margin:0"><figcaption style="padding:0 0 4px">Player ${seat + 1}'s browser</figcaption><img style="display:block" src="data:image/png;base64,${png.toString('base64')}"></figure>`).join('')}
  </body>`);
  await sheet.screenshot({ path: out });
  for (const p of pages) await p.close();
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dirname(db), { recursive: true, force: true });
}
