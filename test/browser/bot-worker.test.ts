/**
 * The search bot in a browser's Web Worker (examples/browser-bot/, shown in docs/bots.md) in a real
 * headless Chromium, driven by playwright-core: the page and the worker are bundled here with
 * esbuild from the sources (the package's names mapped to src/, as the docs snippets' are), served
 * over HTTP from 127.0.0.1 (a module worker does not load from file://), and the page plays a
 * 2-player classic game against the worker's bot. The test checks that every move the worker
 * answered is legal and is the move `searchBot` makes in Node with the same seed and iterations,
 * that the page's timers and frames keep running while the worker searches (and that the same
 * measure sees a main thread that blocks), that "Move now" answers a legal move at once, and that
 * the page loads nothing but its files and logs no error.
 *
 * Run with `npm run test:browser`; MEEPLEKIT_CHROMIUM names another Chromium binary.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMove, createRandomSource, createRuleset, greedyBot, isLegal, newGame, type GameState, type Move } from '../../src/index.js';
import { searchBot } from '../../src/bots/index.js';
import { IMPORT_PATHS } from '../docs-snippets/compile.js';
import { launchChromium, serveDirectory } from './chromium.js';

// The few browser names the callbacks given to page.evaluate use (the project's TypeScript setup
// has no DOM library, and should not get one for src/).
declare function requestAnimationFrame(callback: (now: number) => void): number;
declare const document: { getElementById(id: string): { readonly textContent: string | null } | null };

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'examples/browser-bot');
const rules = (() => {
  const r = createRuleset({ game: 'classic' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

/** A line of the page's log: who moved, the move, and for the worker's bot its searches. */
interface Logged {
  readonly player: number;
  readonly move: Move;
  readonly iterations: number | null;
  readonly aborted: boolean | null;
}

/** The longest pauses of the page's main thread over `ms`: between animation frames and between 5 ms timers. */
interface Pauses {
  readonly frames: number;
  readonly longestFrame: number;
  readonly ticks: number;
  readonly longestTick: number;
}

/** Measures the page's pauses for `ms`; with `blockMs`, the page's main thread is kept busy that long first (the control). */
function pauses(page: Page, ms: number, blockMs = 0): Promise<Pauses> {
  return page.evaluate(
    async ([ms, blockMs]) => {
      const start = performance.now();
      let [frames, lastFrame, longestFrame] = [0, start, 0];
      let [ticks, lastTick, longestTick] = [0, start, 0];
      if (blockMs > 0) {
        setTimeout(() => {
          const until = performance.now() + blockMs;
          while (performance.now() < until);
        }, 20);
      }
      await new Promise<void>((done) => {
        const frame = (now: number): void => {
          longestFrame = Math.max(longestFrame, now - lastFrame);
          [lastFrame, frames] = [now, frames + 1];
          if (now - start < ms) requestAnimationFrame(frame);
          else done();
        };
        requestAnimationFrame(frame);
        const tick = (): void => {
          const now = performance.now();
          longestTick = Math.max(longestTick, now - lastTick);
          [lastTick, ticks] = [now, ticks + 1];
          if (now - start < ms) setTimeout(tick, 5);
        };
        setTimeout(tick, 5);
      });
      return { frames, longestFrame, ticks, longestTick };
    },
    [ms, blockMs] as const,
  );
}

/** The page's log of the game being played. */
function logged(page: Page): Promise<Logged[]> {
  return page.$$eval('#log li', (items) =>
    items.map((li) => {
      const iterations = li.getAttribute('data-iterations');
      const aborted = li.getAttribute('data-aborted');
      return {
        player: Number(li.getAttribute('data-player')),
        move: JSON.parse(li.getAttribute('data-move') ?? 'null') as Move,
        iterations: iterations === null ? null : Number(iterations),
        aborted: aborted === null ? null : aborted === 'true',
      };
    }),
  );
}

/** Starts a new game on the page. */
async function newGameOnPage(page: Page, seed: string, iterations: number): Promise<void> {
  await page.fill('#seed', seed);
  await page.fill('#iterations', String(iterations));
  await page.click('button[type="submit"]');
}

/** Replays the page's log from a new game of `seed`: every move legal; the state before each. */
function replayLog(seed: string, log: readonly Logged[]): GameState[] {
  const game = newGame(rules, { players: 2, seed });
  if (!game.ok) throw new Error(game.error.message);
  const states = [game.value];
  for (const [i, { move }] of log.entries()) {
    const state = states[i]!;
    expect(isLegal(rules, state, move), `move ${i}: ${JSON.stringify(move)}`).toBe(true);
    const next = applyMove(rules, state, move);
    if (!next.ok) throw new Error(next.error.message);
    states.push(next.value.state);
  }
  return states;
}

// `npm test` (vitest.config.ts) picks up this file too but needs no browser: the tests run only
// under vitest.browser.config.ts (`npm run test:browser`), which sets MEEPLEKIT_BROWSER_TESTS.
const enabled = process.env['MEEPLEKIT_BROWSER_TESTS'] === '1';

describe.skipIf(!enabled)('the search bot in a Web Worker (examples/browser-bot) in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let dir: string;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'meeplekit-bot-worker-'));
    // The package's names resolve to the sources, through the paths of a tsconfig that extends the project's.
    const paths = Object.fromEntries(Object.entries(IMPORT_PATHS).map(([name, file]) => [name, [join(root, file)]]));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), compilerOptions: { paths } }));
    const out = join(dir, 'site');
    // As the recipe says: esbuild does not follow `new URL('./bot.worker.js', import.meta.url)`, so the worker is an entry too.
    await build({
      entryPoints: [join(example, 'main.ts'), join(example, 'bot.worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outdir: out,
      tsconfig: join(dir, 'tsconfig.json'),
      logLevel: 'silent',
    });
    copyFileSync(join(example, 'index.html'), join(out, 'index.html'));
    ({ server, origin } = await serveDirectory(out));
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Press "New game".');
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('the measure of pauses sees a main thread that blocks for 300 ms', async () => {
    const blocked = await pauses(page, 500, 300);
    expect(blocked.longestTick).toBeGreaterThanOrEqual(250);
    expect(blocked.longestFrame).toBeGreaterThanOrEqual(250);
  });

  test('while the worker searches, the page keeps running (no pause of 100 ms); "Move now" then answers a legal move at once', async () => {
    // A search far too long to finish (a million searches): the page's greedy bot moves first, then the worker thinks.
    await newGameOnPage(page, 'responsive', 1_000_000);
    await page.waitForSelector('body[data-thinking="true"]');
    const during = await pauses(page, 600);
    // Still searching when the measure ended: the whole 600 ms were a search.
    expect(await page.getAttribute('body', 'data-thinking')).toBe('true');
    expect(during.longestTick, JSON.stringify(during)).toBeLessThan(100);
    expect(during.longestFrame, JSON.stringify(during)).toBeLessThan(100);
    expect(during.frames).toBeGreaterThan(10);
    expect(during.ticks).toBeGreaterThan(20);
    await page.click('#now');
    await page.waitForSelector('#log li[data-player="1"]');
    const log = await logged(page);
    const answered = log.find((l) => l.player === 1)!;
    expect(answered.aborted).toBe(true);
    expect(answered.iterations).toBeGreaterThan(0);
    expect(answered.iterations).toBeLessThan(1_000_000);
    // Legal where the page asked (the page checked it too before it played it).
    replayLog('responsive', log.slice(0, log.indexOf(answered) + 1));
  });

  test('plays a whole 2-player classic game: every worker move is legal and the move searchBot makes in Node', async () => {
    // A new game stops the search still running from the test before.
    const [seed, iterations] = ['browser', 30];
    await newGameOnPage(page, seed, iterations);
    await page.waitForSelector('body[data-step="game-over"]', { timeout: 60_000 });
    expect(await page.textContent('#status')).toMatch(/^Game over: Player \d/);
    const log = await logged(page);
    const states = replayLog(seed, log);
    expect(states.at(-1)!.step.kind).toBe('game-over');
    const bot = searchBot({ iterations, seed });
    const greedy = greedyBot(createRandomSource(seed));
    let searched = 0;
    for (const [i, entry] of log.entries()) {
      const state = states[i]!;
      expect(state.step.kind !== 'game-over' && state.step.player).toBe(entry.player);
      if (entry.player === 1) {
        expect(entry.move, `the worker's move ${i}`).toEqual(bot(rules, state));
        expect(entry.aborted).toBe(false);
        if (entry.iterations === iterations) searched++;
      } else {
        expect(entry.move, `the page's move ${i}`).toEqual(greedy(rules, state));
      }
    }
    // The tile placements (and most other decisions) were searched with the whole budget.
    expect(searched).toBeGreaterThan(30);
  });

  test('the page loaded nothing but its files; no console error, no page error', () => {
    expect(new Set(requests)).toEqual(new Set([`${origin}/`, `${origin}/main.js`, `${origin}/bot.worker.js`]));
    expect(problems).toEqual([]);
  });

  test('docs/bots.md shows the recipe as it is tested: the messages, the worker and the page\'s side', () => {
    const docs = readFileSync(join(root, 'docs/bots.md'), 'utf8');
    for (const file of ['examples/bot-messages.ts', 'examples/browser-bot/bot.worker.ts', 'examples/browser-bot/bot-client.ts']) {
      const code = readFileSync(join(root, file), 'utf8');
      expect(docs, file).toContain(code.slice(code.indexOf('\nimport ') + 1).trim());
    }
  });
});
