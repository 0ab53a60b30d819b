/**
 * The replay viewer (`meeplekit render replay --html`) in a real browser: Debian's Chromium,
 * headless, driven by playwright-core (which downloads no browser). For seeded games of classic,
 * classic with five expansions (two sets: the River and the Count cannot be combined) and The
 * Castle, the test writes the replay with `meeplekit play --replay` and the page with `meeplekit
 * render replay --html` (the CLI's own code), opens it from file://, and checks the board, the
 * scores at every position against scores computed here by replaying the moves, the buttons, the
 * slider and the keys, and that the page loads nothing and logs no error.
 *
 * Run with `npm run test:browser`; MEEPLEKIT_CHROMIUM names another Chromium binary.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMove, createRuleset, newGame, replay, type GameState, type Replay } from '../../src/index.js';
import { CLI_EXPANSIONS, gameByName } from '../../src/cli/expansions.js';
import { runPlay } from '../../src/cli/play.js';
import { runRender } from '../../src/cli/render.js';
import { launchChromium } from './chromium.js';

// The callbacks given to page.evaluate run in the page: these are the few DOM names they use
// (the project's TypeScript setup has no DOM library, and should not get one for src/).
interface PageElement {
  readonly textContent: string | null;
  readonly value: string;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
}
declare const document: PageElement & {
  readonly title: string;
  readonly body: PageElement;
  getElementById(id: string): PageElement | null;
};


interface Game {
  readonly name: string;
  readonly args: readonly string[];
}

const GAMES: readonly Game[] = [
  { name: 'classic, 2 players', args: ['--players', '2', '--seed', 'viewer'] },
  { name: 'classic with Tower, Princess and Dragon, King and Robber, Shrines, Count', args: ['--players', '3', '--seed', 'viewer-a', '--expansions', 'tower,princess-dragon,king-robber,shrines,count'] },
  { name: 'classic with River II, Tower, Princess and Dragon, King and Robber, Shrines', args: ['--players', '4', '--seed', 'viewer-b', '--expansions', 'river,tower,princess-dragon,king-robber,shrines', '--river-set', 'II'] },
  { name: 'The Castle', args: ['--game', 'castle', '--seed', 'viewer'] },
];

let browser: Browser;
let dir: string;

/** What the test expects at each position, computed here from the replay with the library alone. */
interface Expected {
  readonly scores: number[][];
  readonly events: number[];
  readonly tiles: number[];
  readonly final: readonly number[];
}

function flag(args: readonly string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1]!;
}

function expected(game: Game, data: Replay, text: string): Expected {
  const ids = flag(game.args, '--expansions', '').split(',').filter((x) => x !== '');
  const riverSet = game.args.includes('--river-set') ? flag(game.args, '--river-set', '') : undefined;
  const rules = createRuleset({
    game: gameByName(flag(game.args, '--game', 'classic')),
    expansions: ids.map((id) => CLI_EXPANSIONS[id]!(riverSet === undefined ? {} : { riverSet })),
  });
  if (!rules.ok) throw new Error(rules.error.message);
  const game0 = newGame(rules.value, { players: data.players, seed: data.seed });
  if (!game0.ok) throw new Error(game0.error.message);
  let state: GameState = game0.value;
  const scores = [[...state.scores]];
  const events = [0];
  // Tiles of the set on the board (The Castle's start fields, '@...', are part of its wall).
  const onBoard = (t: { readonly id: string }): boolean => !t.id.startsWith('@');
  const tiles = [state.tiles.filter(onBoard).length];
  for (const move of data.moves) {
    const next = applyMove(rules.value, state, move);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
    scores.push([...next.value.state.scores]);
    events.push(next.value.events.length);
    tiles.push(next.value.state.tiles.filter(onBoard).length);
  }
  const whole = replay(rules.value, text);
  if (!whole.ok) throw new Error(whole.error.message);
  expect(whole.value.state.step.kind).toBe('game-over');
  return { scores, events, tiles, final: whole.value.state.scores };
}

/** What the page shows now. */
async function shown(page: Page): Promise<{ position: number; scores: number[]; move: string; events: number; slider: number }> {
  return page.evaluate(() => ({
    position: Number(document.body.getAttribute('data-position')),
    scores: [...document.querySelectorAll('.scores td.score')].map((td) => Number(td.textContent)),
    move: document.getElementById('move')!.textContent ?? '',
    events: document.querySelectorAll('#events li').length,
    slider: Number(document.getElementById('slider')!.value),
  }));
}

/** Moves the slider to position `i` (a user dragging it: input events). */
async function go(page: Page, i: number): Promise<void> {
  await page.locator('#slider').fill(String(i));
  expect((await shown(page)).position).toBe(i);
}

// `npm test` (vitest.config.ts) picks up this file too but needs no browser: the tests run only
// under vitest.browser.config.ts (`npm run test:browser`), which sets MEEPLEKIT_BROWSER_TESTS.
const enabled = process.env['MEEPLEKIT_BROWSER_TESTS'] === '1';

describe.skipIf(!enabled)('the replay viewer in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'meeplekit-viewer-'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(GAMES)('the replay viewer: $name', (game) => {
    let page: Page;
    let exp: Expected;
    let html: string;
    const problems: string[] = [];
    const requests: string[] = [];

    beforeAll(async () => {
      const slug = game.name.replace(/[^a-z0-9]+/gi, '-');
      const replayFile = join(dir, `${slug}.json`);
      html = join(dir, `${slug}.html`);
      const played = runPlay([...game.args, '--replay', replayFile]);
      expect(played.stderr).toBe('');
      expect(played.code).toBe(0);
      const text = readFileSync(replayFile, 'utf8');
      exp = expected(game, JSON.parse(text) as Replay, text);
      const rendered = await runRender(['replay', replayFile, '--html', '--out', html]);
      expect(rendered.stderr).toBe('');
      expect(rendered.code).toBe(0);
      page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(html).href);
    });

    afterAll(async () => {
      await page?.close();
    });

    test('opens at the start of the game, loads nothing but itself, and draws the board with its tiles', async () => {
      expect(requests).toEqual([pathToFileURL(html).href]);
      const now = await shown(page);
      expect(now).toMatchObject({ position: 0, slider: 0, scores: exp.scores[0] });
      const board = await page.evaluate(() => {
        const svg = document.querySelector('#board svg')!;
        const box = svg.getBoundingClientRect();
        return { width: box.width, height: box.height, title: svg.querySelector('title')?.textContent ?? null };
      });
      expect(board.width).toBeGreaterThan(50);
      expect(board.height).toBeGreaterThan(50);
      expect(board.title).toMatch(/board/i);
      expect(await page.evaluate(() => document.title)).toMatch(/^meeplekit replay: /);
      // The tile pictures live in the one symbols block; each board refers to them, once per tile.
      expect(await page.evaluate(() => document.querySelectorAll('#board svg g.tiles use').length)).toBe(exp.tiles[0]);
      await page.click('#last');
      const last = exp.tiles.length - 1;
      const tiles = await page.evaluate(() => {
        const uses = [...document.querySelectorAll('#board svg g.tiles use')];
        const refs = uses.map((u) => u.getAttribute('href') ?? u.getAttribute('xlink:href') ?? '');
        const missing = refs.filter((r) => r.startsWith('#') && document.getElementById(r.slice(1)) === null);
        const painted = uses.filter((u) => {
          const b = u.getBoundingClientRect();
          return b.width > 0 && b.height > 0;
        }).length;
        return { uses: uses.length, missing, painted };
      });
      expect(tiles.missing).toEqual([]);
      expect(tiles.uses).toBe(exp.tiles[last]);
      expect(tiles.painted).toBe(exp.tiles[last]);
    });

    test('the next button steps through every move: the scores, the move and its events agree with the replay', async () => {
      await go(page, 0);
      expect((await shown(page)).position).toBe(0);
      expect(await page.isDisabled('#prev')).toBe(true);
      const last = exp.scores.length - 1;
      for (let i = 1; i <= last; i++) {
        // A real mouse click on the button; force skips Playwright's wait for two still frames (30 ms a step).
        await page.click('#next', { force: true });
        const now = await shown(page);
        expect(now.position).toBe(i);
        expect(now.slider).toBe(i);
        expect(now.scores, `scores after move ${i}`).toEqual(exp.scores[i]);
        expect(now.move).not.toBe('');
        expect(now.events, `events of move ${i}`).toBe(exp.events[i]);
      }
      expect(await page.isDisabled('#next')).toBe(true);
      expect(await page.isDisabled('#last')).toBe(true);
    });

    test('the last frame shows the final scores of the replayed game', async () => {
      await go(page, 0);
      await page.click('#last');
      const now = await shown(page);
      expect(now.position).toBe(exp.scores.length - 1);
      expect(now.scores).toEqual([...exp.final]);
      expect(await page.textContent('#step')).toMatch(/^game over: winners? Player \d/);
    });

    test('the previous and first buttons, the slider and the arrow, Home and End keys move too', async () => {
      const last = exp.scores.length - 1;
      await go(page, 0);
      await page.click('#last');
      await page.click('#prev');
      expect(await shown(page)).toMatchObject({ position: last - 1, scores: exp.scores[last - 1] });
      for (const i of [Math.floor(last / 3), 1, last, Math.floor((2 * last) / 3)]) {
        await page.locator('#slider').fill(String(i));
        expect(await shown(page), `slider at ${i}`).toMatchObject({ position: i, scores: exp.scores[i] });
      }
      await page.locator('#move').click();
      await page.keyboard.press('ArrowLeft');
      const i = Math.floor((2 * last) / 3) - 1;
      expect(await shown(page)).toMatchObject({ position: i, scores: exp.scores[i] });
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await shown(page)).toMatchObject({ position: i + 2, scores: exp.scores[i + 2] });
      await page.keyboard.press('Home');
      expect(await shown(page)).toMatchObject({ position: 0, scores: exp.scores[0] });
      await page.keyboard.press('End');
      expect(await shown(page)).toMatchObject({ position: last, scores: [...exp.final] });
      await go(page, 5);
      await page.click('#first');
      expect(await shown(page)).toMatchObject({ position: 0, scores: exp.scores[0] });
    });

    test('buttons have labels; no console error, no page error', async () => {
      const labels = await page.$$eval('button', (bs) => bs.map((b) => b.getAttribute('aria-label') ?? ''));
      expect(labels).toHaveLength(4);
      for (const l of labels) expect(l.length).toBeGreaterThan(3);
      expect(await page.getAttribute('#slider', 'max')).toBe(String(exp.scores.length - 1));
      expect(problems).toEqual([]);
      // Reported in the test log: the page's size.
      console.log(`${game.name}: ${exp.scores.length - 1} moves, viewer ${Math.round(statSync(html).size / 1024)} KiB`);
    });
  });
});
