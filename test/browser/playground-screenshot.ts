/**
 * Takes the playground's screenshots in docs/playground.md: docs/images/playground.png (a desktop
 * window, mid-game, classic with all six expansions, 3 players, the tile to place on its legal
 * cells) and docs/images/playground-phone.png (390 x 844). The page is built by
 * scripts/build-playground.ts, served from 127.0.0.1 and played by clicks against level-1 bots up
 * to a position late enough to show a board.
 *
 *   npx tsx test/browser/playground-screenshot.ts [out directory, default docs/images]
 *
 * MEEPLEKIT_CHROMIUM names another Chromium binary (default /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildPlayground } from '../../scripts/build-playground.js';
import { launchChromium, serveDirectory } from './chromium.js';

declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

const outDir = process.argv[2] ?? 'docs/images';
const dir = mkdtempSync(join(tmpdir(), 'meeplekit-playground-shot-'));
const built = await buildPlayground(dir);
const { server, origin } = await serveDirectory(built.dir);
const browser = await launchChromium();

/** Plays by clicks until `moves` moves are played and the human places a tile. */
async function playTo(page: Page, moves: number): Promise<void> {
  let n = 0;
  for (;;) {
    const { state, seq } = await page.$eval('#status', (el) => ({ state: el.getAttribute('data-state'), seq: Number(el.getAttribute('data-seq')) }));
    const cells = await page.$$('#board [data-cell]');
    if (seq >= moves && state === 'human' && cells.length > 0) return;
    if (state === 'human') {
      n++;
      if (cells.length > 0) {
        const cell = page.locator('#board [data-cell]').nth(n % cells.length);
        const key = await cell.getAttribute('data-cell');
        await cell.click();
        await page.locator(`#board [data-cell="${key}"]`).click();
      } else {
        const buttons = await page.$$('#choices button[data-move]');
        await page.locator(`#choices button[data-move="${n % buttons.length}"]`).click();
      }
    }
    await page.waitForFunction((seq) => document.querySelector('#status')?.getAttribute('data-seq') !== String(seq), seq, { polling: 20 });
  }
}

try {
  for (const [name, viewport] of [
    ['playground.png', { width: 1100, height: 720 }],
    ['playground-phone.png', { width: 390, height: 844 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(`${origin}/index.html?botDelay=0`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/index.html?botDelay=0`);
    await page.selectOption('select#game', 'classic');
    for (const id of ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines']) await page.check(`input[name=expansion][value="${id}"]`);
    await page.selectOption('select#players', '3');
    await page.selectOption('select[data-seat="1"]', 'bot:1');
    await page.selectOption('select[data-seat="2"]', 'bot:1');
    await page.fill('input#seed', 'screenshot');
    await page.click('button#start');
    await playTo(page, 60);
    // Select a cell so that the tile shows where it would go.
    await page.locator('#board [data-cell]').first().click();
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, name) });
    await page.close();
    console.log(`${join(outDir, name)}`);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

declare const localStorage: { clear(): void };
