/**
 * The playground (playground/, built by scripts/build-playground.ts) in a real headless Chromium,
 * driven by playwright-core through clicks and keys only: a whole game against level-1 bots in
 * classic with all six expansions and in The Castle (no console error, no page error, the game
 * over, the scores shown those of the engine's final state, replayed from the saved game); a
 * reload mid-game restores the game; a tampered saved game shows an error and the setup form;
 * placing by keyboard; the page keeps running while a bot thinks.
 *
 * Run with `npx vitest run --config vitest.browser.config.ts test/browser/playground.test.ts`;
 * MEEPLEKIT_CHROMIUM names another Chromium binary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRuleset, parseState, type Expansion, type GameState } from '../../src/index.js';
import { castle } from '../../src/games/castle/entry.js';
import { count } from '../../src/expansions/count/index.js';
import { kingRobber } from '../../src/expansions/king-robber/index.js';
import { princessDragon } from '../../src/expansions/princess-dragon/index.js';
import { river } from '../../src/expansions/river/index.js';
import { shrines } from '../../src/expansions/shrines/index.js';
import { tower } from '../../src/expansions/tower/index.js';
import { buildPlayground } from '../../scripts/build-playground.js';
import { launchChromium, serveDirectory } from './chromium.js';

declare function requestAnimationFrame(callback: (now: number) => void): number;
declare const localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void; clear(): void };
interface PageElement {
  getAttribute(name: string): string | null;
  readonly textContent: string | null;
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  closest(selector: string): PageElement | null;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
  elementFromPoint(x: number, y: number): PageElement | null;
};
declare const innerWidth: number;
declare const innerHeight: number;


/** The localStorage key of the saved game (playground/src/storage.ts). */
const STORAGE_KEY = 'meeplekit-playground';
const MODULES: Record<string, () => Expansion> = {
  river: () => river(),
  'king-robber': () => kingRobber(),
  tower: () => tower(),
  'princess-dragon': () => princessDragon(),
  count: () => count(),
  shrines: () => shrines(),
};

const enabled = process.env['MEEPLEKIT_BROWSER_TESTS'] === '1';
const ALL = ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'];

interface Setup {
  readonly game: 'classic' | 'castle';
  readonly expansions: readonly string[];
  readonly seats: readonly string[];
  readonly seed: string;
}

describe.skipIf(!enabled)('the playground in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let dir: string;
  let origin: string;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'meeplekit-playground-'));
    const built = await buildPlayground(dir);
    ({ server, origin } = await serveDirectory(built.dir));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the page with no saved game. */
  async function fresh(query = '?botDelay=0'): Promise<void> {
    await page.goto(`${origin}/index.html${query}`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/index.html${query}`);
    await page.waitForSelector('#status[data-state="setup"]');
  }

  /** Fills the setup form by clicks and starts. */
  async function startGame(setup: Setup): Promise<void> {
    await page.selectOption('select#game', setup.game);
    for (const id of setup.expansions) await page.check(`input[name=expansion][value="${id}"]`);
    if (setup.game === 'classic') await page.selectOption('select#players', String(setup.seats.length));
    for (const [i, kind] of setup.seats.entries()) await page.selectOption(`select[data-seat="${i}"]`, kind);
    await page.fill('input#seed', setup.seed);
    await page.click('button#start');
    await page.waitForSelector('#status:not([data-state="setup"])');
  }

  /** The status: state and seq. */
  async function status(): Promise<{ state: string; seq: string }> {
    return page.$eval('#status', (el) => ({ state: el.getAttribute('data-state') ?? '', seq: el.getAttribute('data-seq') ?? '' }));
  }

  /** Waits until the page shows another position than `seq`, or the end. */
  async function nextPosition(seq: string): Promise<void> {
    await page.waitForFunction(
      (seq) => {
        const el = document.querySelector('#status');
        return el !== null && (el.getAttribute('data-seq') !== seq || el.getAttribute('data-state') === 'over' || (document.querySelector('#error')?.textContent ?? '') !== '');
      },
      seq,
      { timeout: 30_000, polling: 20 },
    );
  }

  /** What one look at the page tells the player: the status, the error, and where each clickable is. */
  interface Look {
    readonly state: string;
    readonly seq: string;
    readonly error: string;
    /** Legal cells and decision buttons, each with the viewport point of its centre, or null when something else is there or it is off-screen. */
    readonly cells: readonly { readonly key: string; readonly at: { x: number; y: number } | null }[];
    readonly buttons: readonly { readonly at: { x: number; y: number } | null }[];
    /** The decisions with a mark on the board, by index. */
    readonly targets: readonly { readonly index: number; readonly at: { x: number; y: number } | null }[];
  }

  /** Reads the page in one round trip (playwright's one-query-at-a-time took most of a game's time). */
  async function look(): Promise<Look> {
    return page.evaluate(() => {
      // Where a real click at an element's centre lands: the element itself, or null.
      const centre = (el: PageElement, selector: string): { x: number; y: number } | null => {
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
        return document.elementFromPoint(x, y)?.closest(selector) === el ? { x, y } : null;
      };
      const status = document.querySelector('#status')!;
      return {
        state: status.getAttribute('data-state') ?? '',
        seq: status.getAttribute('data-seq') ?? '',
        error: document.querySelector('#error')?.textContent ?? '',
        cells: Array.from(document.querySelectorAll('#board [data-cell]'), (el) => ({ key: el.getAttribute('data-cell') ?? '', at: centre(el, '[data-cell]') })),
        buttons: Array.from(document.querySelectorAll('#choices button[data-move]'), (el) => ({ at: centre(el, 'button') })),
        targets: Array.from(document.querySelectorAll('#board [data-target]'), (el) => ({ index: Number(el.getAttribute('data-target')), at: centre(el, '[data-target]') })),
      };
    });
  }

  /**
   * A real mouse click (the browser's own hit testing and events) at a point `look` found clear,
   * or playwright's click on the element (which scrolls it into view first) when it was not.
   */
  async function clickAt(at: { x: number; y: number } | null, selector: string): Promise<void> {
    if (at !== null) await page.mouse.click(at.x, at.y);
    else await page.locator(selector).first().click();
  }

  /**
   * Plays the human's decisions by clicks until the game ends (or `until` moves have been
   * played): a legal cell clicked twice (select, place), a decision by its board target or its
   * button, chosen by a simple rotation over the offered ones. Returns the human decisions made.
   */
  async function playByClicks(until = Infinity): Promise<number> {
    let decisions = 0;
    for (;;) {
      const now = await look();
      if (now.state === 'over' || Number(now.seq) >= until) return decisions;
      expect(now.error).toBe('');
      if (now.state !== 'human') {
        await nextPosition(now.seq);
        continue;
      }
      decisions++;
      if (now.cells.length > 0) {
        const cell = now.cells[decisions % now.cells.length]!;
        const selector = `#board [data-cell="${cell.key}"]`;
        await clickAt(cell.at, selector);
        await page.waitForSelector(`${selector}.selected`);
        await clickAt(cell.at, selector);
      } else {
        expect(now.buttons.length).toBeGreaterThan(0);
        const i = decisions % now.buttons.length;
        const target = now.targets.find((t) => t.index === i);
        if (decisions % 2 === 0 && target !== undefined) await clickAt(target.at, `#board [data-target="${i}"]`);
        else await clickAt(now.buttons[i]!.at, `#choices button[data-move="${i}"]`);
      }
      await nextPosition(now.seq);
    }
  }

  /** The game the page saved, checked here by the engine's parseState (which replays it from its seed and moves). */
  async function saved(): Promise<GameState> {
    const text = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
    expect(text).not.toBeNull();
    const entry = JSON.parse(text!) as { config: { game: 'classic' | 'castle'; expansions: string[] }; state: string };
    const rules = createRuleset({ game: entry.config.game === 'castle' ? castle() : 'classic', expansions: entry.config.expansions.map((id) => MODULES[id]!()) });
    if (!rules.ok) throw new Error(rules.error.message);
    const state = parseState(rules.value, entry.state);
    if (!state.ok) throw new Error(state.error.message);
    return state.value;
  }

  async function expectFinalScores(): Promise<void> {
    const state = await saved();
    expect(state.step.kind).toBe('game-over');
    const shown = await page.$$eval('#scores tr[data-player]', (rows) => rows.map((r) => Number(r.getAttribute('data-score'))));
    expect(shown).toEqual([...state.scores]);
  }

  /** The board's picture lies within its panel (nothing cut off, no scrolling), and the status line is in the window. */
  async function expectBoardFits(width: number): Promise<void> {
    const boxes = await page.evaluate(() => {
      const rect = (selector: string): { left: number; top: number; right: number; bottom: number } => {
        const r = document.querySelector(selector)!.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.left + r.width, bottom: r.top + r.height };
      };
      const board = document.querySelector('#board') as unknown as { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
      return { board: rect('#board'), svg: rect('#board svg'), status: rect('#status'), overflowX: board.scrollWidth - board.clientWidth, overflowY: board.scrollHeight - board.clientHeight, innerHeight };
    });
    const where = `${width}px wide: ${JSON.stringify(boxes)}`;
    expect(boxes.overflowX, where).toBeLessThanOrEqual(1);
    expect(boxes.overflowY, where).toBeLessThanOrEqual(1);
    expect(boxes.svg.left, where).toBeGreaterThanOrEqual(boxes.board.left - 1);
    expect(boxes.svg.right, where).toBeLessThanOrEqual(boxes.board.right + 1);
    expect(boxes.svg.bottom, where).toBeLessThanOrEqual(boxes.board.bottom + 1);
    // Scaled to the panel: as wide as it is, or as tall as it may be.
    expect(Math.max(boxes.svg.right - boxes.svg.left - (boxes.board.right - boxes.board.left - 2), boxes.svg.bottom - boxes.svg.top - (boxes.board.bottom - boxes.board.top - 2)), where).toBeGreaterThan(-2);
    expect(boxes.status.top, where).toBeGreaterThanOrEqual(0);
    expect(boxes.status.bottom, where).toBeLessThanOrEqual(boxes.innerHeight);
  }

  test('a whole game by clicks against a level-1 bot, classic with all six expansions; the board fits its panel, on a phone too', async () => {
    await fresh();
    await startGame({ game: 'classic', expansions: ALL, seats: ['human', 'bot:1'], seed: 'playground-all' });
    const decisions = await playByClicks();
    expect(decisions).toBeGreaterThan(40);
    await page.waitForSelector('#status[data-state="over"]');
    await expectFinalScores();
    // The whole board (about 140 tiles) in its panel, here and on a phone, with the status line in sight.
    await expectBoardFits(1200);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectBoardFits(390);
    await page.setViewportSize({ width: 1200, height: 800 });
    expect(problems).toEqual([]);
  });

  test('a whole game by clicks against a level-1 bot in The Castle', async () => {
    await fresh();
    await startGame({ game: 'castle', expansions: [], seats: ['human', 'bot:1'], seed: 'playground-castle' });
    const decisions = await playByClicks();
    expect(decisions).toBeGreaterThan(15);
    await expectFinalScores();
    expect(problems).toEqual([]);
  });

  test('a reload mid-game restores the game; a tampered saved game shows an error and the setup form', async () => {
    await fresh();
    await startGame({ game: 'classic', expansions: ['tower', 'count'], seats: ['human', 'bot:1', 'bot:1'], seed: 'playground-reload' });
    await playByClicks(12);
    const before = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
    const seq = (await status()).seq;
    const board = await page.$eval('#board svg title', (t) => t.textContent);
    await page.reload();
    await page.waitForSelector('#status:not([data-state="setup"])');
    expect((await status()).seq).toBe(seq);
    expect(await page.$eval('#board svg title', (t) => t.textContent)).toBe(board);
    expect(await page.isVisible('form#setup')).toBe(false);
    // Tampered: a score changed by hand. parseState replays the moves and refuses it.
    const entry = JSON.parse(before!) as { state: string };
    const state = JSON.parse(entry.state) as { state: { scores: number[] } };
    state.state.scores[0] = 99;
    const tampered = JSON.stringify({ ...entry, state: JSON.stringify(state) });
    await page.evaluate(([key, text]) => localStorage.setItem(key, text), [STORAGE_KEY, tampered] as const);
    await page.reload();
    await page.waitForSelector('#status[data-state="setup"]');
    expect(await page.isVisible('form#setup')).toBe(true);
    expect(await page.textContent('#error')).toMatch(/could not be restored/);
    // And not JSON at all.
    await page.evaluate((key) => localStorage.setItem(key, '{not json'), STORAGE_KEY);
    await page.reload();
    await page.waitForSelector('#status[data-state="setup"]');
    expect(await page.textContent('#error')).toMatch(/not JSON/);
    expect(problems).toEqual([]);
  });

  test('placing a tile by keyboard only: arrows, R, Enter', async () => {
    await fresh();
    await startGame({ game: 'classic', expansions: [], seats: ['human', 'human'], seed: 'playground-keys' });
    await page.waitForSelector('#status[data-state="human"]');
    await page.locator('body').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#board .cell.selected');
    const selected = await page.getAttribute('#board .cell.selected', 'data-cell');
    await page.keyboard.press('r');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#status[data-seq="1"]');
    // Placed where the cursor was: the deploy step's targets stand on that cell.
    const placed = (await saved()).moves[0]!;
    expect(placed.type === 'place' && `${placed.x},${placed.y}`).toBe(selected);
    // The deploy decision by keyboard: Tab to a choice, Enter.
    await page.focus('#choices button[data-move="0"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#status[data-seq="2"]');
    expect(problems).toEqual([]);
  });

  test('the page keeps running while a bot thinks (no pause of 100 ms)', async () => {
    await fresh('?botDelay=0');
    // A level-5 bot decides first: a long search, in the worker.
    await startGame({ game: 'classic', expansions: ALL, seats: ['bot:5', 'human'], seed: 'playground-busy' });
    await page.waitForSelector('#status[data-state="bot"]');
    const pauses = await page.evaluate(async () => {
      const start = performance.now();
      let [frames, lastFrame, longestFrame] = [0, start, 0];
      let [lastTick, longestTick] = [start, 0];
      await new Promise<void>((done) => {
        const frame = (now: number): void => {
          longestFrame = Math.max(longestFrame, now - lastFrame);
          [lastFrame, frames] = [now, frames + 1];
          if (now - start < 600) requestAnimationFrame(frame);
          else done();
        };
        requestAnimationFrame(frame);
        const tick = (): void => {
          const now = performance.now();
          longestTick = Math.max(longestTick, now - lastTick);
          lastTick = now;
          if (now - start < 600) setTimeout(tick, 5);
        };
        setTimeout(tick, 5);
      });
      return { frames, longestFrame, longestTick, state: document.querySelector('#status')?.getAttribute('data-state') };
    });
    expect(pauses.state).toBe('bot');
    expect(pauses.longestFrame, JSON.stringify(pauses)).toBeLessThan(100);
    expect(pauses.longestTick, JSON.stringify(pauses)).toBeLessThan(100);
    expect(pauses.frames).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
