/**
 * Takes the screenshot of the replay viewer in docs/cli.md (docs/images/viewer.png): a seeded
 * 3-player game with the Tower, the Princess and the Dragon and King and Robber, written by the
 * CLI's own code and opened in Debian's headless Chromium at a position late in the game.
 *
 *   npx tsx test/browser/screenshot.ts [out.png]
 *
 * MEEPLEKIT_CHROMIUM names another Chromium binary (default /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runPlay } from '../../src/cli/play.js';
import { runRender } from '../../src/cli/render.js';
import { launchChromium } from './chromium.js';

const out = process.argv[2] ?? 'docs/images/viewer.png';
const dir = mkdtempSync(join(tmpdir(), 'meeplekit-shot-'));
try {
  const replayFile = join(dir, 'game.json');
  const html = join(dir, 'viewer.html');
  const played = runPlay(['--players', '3', '--seed', 'docs', '--bots', 'greedy', '--expansions', 'tower,princess-dragon,king-robber', '--replay', replayFile]);
  if (played.code !== 0) throw new Error(played.stderr);
  // Open at the position after turn 40.
  const rendered = await runRender(['replay', replayFile, '--html', '--turn', '40', '--out', html]);
  if (rendered.code !== 0) throw new Error(rendered.stderr);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1040, height: 640 } });
    await page.goto(pathToFileURL(html).href);
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
