/**
 * The browser tests' harness: Debian's Chromium driven by playwright-core (resolved from the
 * repository's node_modules; it downloads no browser), the docs playground's build served by the
 * server under test, and a seat's page driven through the playground's DOM contract
 * (docs/playground.md): `#status` and its data-state, data-player and data-version, legal cells
 * `[data-cell]` on `#board`, the decisions as `#choices button[data-move]`, `#scores`, `#error`.
 *
 * The tests skip, saying why, when Chromium or the playground's build is missing, unless
 * MEEPLEKIT_REQUIRE_BROWSER=1 makes that a failure.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page, type WebSocketRoute } from 'playwright-core';
import { DEFAULT_PLAYGROUND_DIR } from '../src/static-files.js';

/** The Chromium binary: MEEPLEKIT_CHROMIUM, or Debian's. */
export const CHROMIUM = process.env['MEEPLEKIT_CHROMIUM'] ?? '/usr/bin/chromium';

/** The playground's build the servers under test serve: MEEPLEKIT_PLAYGROUND, or the repository's. */
export const PLAYGROUND_DIR = process.env['MEEPLEKIT_PLAYGROUND'] || DEFAULT_PLAYGROUND_DIR;

/** MEEPLEKIT_REQUIRE_BROWSER=1: a missing browser or build fails the tests instead of skipping them. */
export const REQUIRE_BROWSER = process.env['MEEPLEKIT_REQUIRE_BROWSER'] === '1';

/** Why the browser tests cannot run here, or null when they can. */
export function browserSkipReason(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set MEEPLEKIT_CHROMIUM)`;
  if (!existsSync(join(PLAYGROUND_DIR, 'index.html'))) {
    return `the playground is not built in ${PLAYGROUND_DIR} (at the repository's root: npx tsx scripts/build-playground.ts, or npm run docs; or set MEEPLEKIT_PLAYGROUND)`;
  }
  return null;
}

/** Chromium, headless, with no sandbox when run as root (as in a CI container). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

/** A seat's link: the page at the server's origin, given the server, the game and the seat's token. */
export function seatLink(port: number, game: string, token: string): string {
  const query = new URLSearchParams({ server: `ws://127.0.0.1:${port}`, game, seat: token });
  return `http://127.0.0.1:${port}/index.html?${query}`;
}

/** What `#status` says. */
export interface Status {
  readonly state: string | null;
  readonly player: number | null;
  readonly version: number | null;
}

/** Something the page logged as an error, or threw, with when (Date.now()). */
export interface PageProblem {
  readonly at: number;
  readonly text: string;
}

/** A small deterministic generator for the test players' choices. */
export function chooser(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    // The high bits: an LCG's low bits repeat with short periods (the lowest one alternates).
    return Math.floor((s / 2 ** 32) * n);
  };
}

/** How a seat's page is opened. */
export interface SeatPageOptions {
  /** The page's size (default 1280 by 900). */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Called with every message the server sends the page. */
  readonly onServerMessage?: (text: string) => void;
}

/**
 * A seat's page: its context (a browser profile of its own), the page, every console error and
 * uncaught exception it produced, and the WebSocket route that can cut it off the network.
 */
export class SeatPage {
  readonly problems: PageProblem[] = [];
  /** Every message the server sent the page, in order (JSON text). */
  readonly inbox: string[] = [];
  private offline = false;
  private readonly sockets = new Set<WebSocketRoute>();

  private constructor(
    readonly label: string,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') this.problems.push({ at: Date.now(), text: m.text() });
    });
    page.on('pageerror', (e) => this.problems.push({ at: Date.now(), text: `uncaught: ${e.message}` }));
  }

  /**
   * A new context and page. Its WebSocket connections go through playwright's route, which passes
   * everything on to the server until `setOffline(true)`: then the open ones are closed, and new
   * ones are closed as soon as they open, as when the network is gone (Chromium's own offline
   * emulation leaves open WebSockets alone).
   */
  static async open(browser: Browser, label: string, url: string, options: SeatPageOptions = {}): Promise<SeatPage> {
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seat = new SeatPage(label, context, page);
    await context.routeWebSocket(/.*/, (ws) => {
      if (seat.offline) {
        ws.close({ code: 4000, reason: 'offline (test)' });
        return;
      }
      seat.sockets.add(ws);
      ws.onClose(() => seat.sockets.delete(ws));
      const server = ws.connectToServer();
      // Passed on as they come (and shown to the test: the seed scan of everything clients received).
      server.onMessage((m) => {
        const text = typeof m === 'string' ? m : m.toString();
        seat.inbox.push(text);
        options.onServerMessage?.(text);
        ws.send(m);
      });
    });
    await page.goto(url);
    return seat;
  }

  /** Cuts the page off the server (true) or lets it connect again (false). */
  async setOffline(offline: boolean): Promise<void> {
    this.offline = offline;
    await this.context.setOffline(offline);
    if (offline) for (const ws of [...this.sockets]) await ws.close({ code: 4000, reason: 'offline (test)' });
  }

  /** What `#status` says now. */
  async status(): Promise<Status> {
    const s = this.page.locator('#status');
    const [state, player, version] = await Promise.all([s.getAttribute('data-state'), s.getAttribute('data-player'), s.getAttribute('data-version')]);
    const num = (v: string | null): number | null => (v === null || v === '' ? null : Number(v));
    return { state, player: num(player), version: num(version) };
  }

  /** Waits until `#status` shows `version` or more. */
  async waitVersion(version: number, timeout = 60_000): Promise<Status> {
    await this.page.waitForFunction(
      (v) => {
        const s = (globalThis as unknown as { document: { querySelector(q: string): { getAttribute(n: string): string | null } | null } }).document.querySelector('#status');
        return s !== null && Number(s.getAttribute('data-version') ?? -1) >= v;
      },
      version,
      { timeout, polling: 50 },
    );
    return this.status();
  }

  /** Whether the page offers legal cells: its seat has a tile to place. */
  async placing(): Promise<boolean> {
    return (await this.page.locator('#board [data-cell]').count()) > 0;
  }

  /** The board's markup: two pages that show the same position show the same board. */
  board(): Promise<string> {
    return this.page.locator('#board').innerHTML();
  }

  /** The board's markup without what only the deciding seat is shown (the legal cells and marks of `.overlay`). */
  picture(): Promise<string> {
    return this.page.locator('#board').evaluate((board) => {
      const copy = (board as any).cloneNode(true);
      for (const overlay of copy.querySelectorAll('.overlay')) overlay.replaceChildren();
      return copy.innerHTML as string;
    });
  }

  /** The text of `#error` (empty when the page shows no refusal). */
  async error(): Promise<string> {
    return ((await this.page.locator('#error').textContent()) ?? '').trim();
  }

  /** The scores `#scores` shows, one number per player in seat order. */
  async scores(): Promise<number[]> {
    const rows = this.page.locator('#scores [data-score]');
    if ((await rows.count()) > 0) return (await rows.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('data-score')))).map(Number);
    const text = (await this.page.locator('#scores').textContent()) ?? '';
    return [...text.matchAll(/-?\d+/g)].map((m) => Number(m[0]));
  }

  /**
   * Makes one move by clicking, as a player would. The tile: a legal cell clicked (which selects
   * it and previews the tile there), the tile turned `pick(4)` times with `#rotate` (through the
   * rotations that fit that cell), then `#place`. A decision: now and then its mark on the board
   * (`[data-target]`) when one can be clicked, otherwise one of the `#choices` buttons. Returns
   * what was clicked; the caller waits for the version to move on.
   */
  async clickMove(pick: (n: number) => number): Promise<string> {
    const cells = this.page.locator('#board [data-cell]');
    const nCells = await cells.count();
    if (nCells > 0) {
      const cell = cells.nth(pick(nCells));
      const where = await cell.getAttribute('data-cell');
      await cell.click();
      const turns = pick(4);
      for (let i = 0; i < turns; i++) await this.page.locator('#rotate').click();
      await this.page.locator('#place').click();
      this.clicks.cells++;
      return `tile on ${where}, turned ${turns} times`;
    }
    const buttons = this.page.locator('#choices button[data-move]');
    const n = await buttons.count();
    if (n === 0) throw new Error(`${this.label}: no legal cell and no decision button, though #status says it is this seat's turn`);
    const targets = this.page.locator('#board [data-target]');
    const nTargets = await targets.count();
    if (nTargets > 0 && pick(2) === 0) {
      const target = targets.nth(pick(nTargets));
      // Only a mark nothing else covers: a real click lands on it.
      const clickable = await target.click({ trial: true, timeout: 1000 }).then(() => true, () => false);
      if (clickable) {
        const i = await target.getAttribute('data-target');
        await target.click();
        this.clicks.targets++;
        return `board target ${i}`;
      }
    }
    const button = buttons.nth(pick(n));
    const name = `button ${await button.getAttribute('data-move')} (${((await button.textContent()) ?? '').trim()})`;
    await button.click();
    this.clicks.buttons++;
    return name;
  }

  /** How many moves this page made by each kind of click. */
  readonly clicks = { cells: 0, targets: 0, buttons: 0 };

  /** Closes the page and its context. */
  async close(): Promise<void> {
    await this.context.close();
  }
}
