/**
 * `npx tsx bench/render-view.ts [--runs 7] [--browser]`: how long a client takes to draw public
 * views (meeplekit/render's `renderBoard` and `legalPlacements` on the view, as the playground
 * does online) over a whole seeded game with all six expansions, with the boards the renderer
 * keeps (src/render/view-boards.ts) and without (bench/render-view-core.ts says how). `--browser`
 * runs the same code bundled (esbuild) in Debian's headless Chromium (MEEPLEKIT_CHROMIUM names
 * another binary) instead of Node.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { measure, type RenderViewFigures } from './render-view-core.js';

const { values } = benchOptions(import.meta.url, () => parseArgs({ options: { runs: { type: 'string', default: '7' }, browser: { type: 'boolean', default: false } } }));
const runs = Math.max(1, Number(values.runs));

async function inChromium(): Promise<RenderViewFigures> {
  const { build } = await import('esbuild');
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'meeplekit-render-view-'));
  try {
    await build({
      entryPoints: [fileURLToPath(new URL('./render-view-core.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      globalName: 'renderViewBench',
      platform: 'browser',
      target: 'es2022',
      outfile: join(dir, 'bench.js'),
      logLevel: 'warning',
    });
    const browser = await chromium.launch({ executablePath: process.env['MEEPLEKIT_CHROMIUM'] ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.addScriptTag({ content: readFileSync(join(dir, 'bench.js'), 'utf8') });
      return await page.evaluate((n) => (globalThis as unknown as { renderViewBench: { measure(runs: number): RenderViewFigures } }).renderViewBench.measure(n), runs);
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = values.browser ? await inChromium() : measure(runs);
console.log(
  `${values.browser ? 'Chromium' : `Node ${process.version}`}: ${result.views} views, the last with ${result.tiles} tiles; ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; median of ${runs}`,
);
for (const [name, r] of Object.entries(result.figures)) {
  const per = name.startsWith('whole') ? `, ${(r.ms / result.views).toFixed(2)} ms a view` : '';
  console.log(`${name.padEnd(18)} ${r.ms.toFixed(0).padStart(6)} ms${per}  (pictures ${r.digest})`);
}
if (result.figures['whole game, cold'].digest !== result.figures['whole game, warm'].digest) {
  console.error('the pictures differ between cold and warm');
  process.exitCode = 1;
}
