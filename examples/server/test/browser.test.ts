/**
 * The docs playground played online through this server, in a real browser (Debian's Chromium,
 * headless, driven by playwright-core): two browser contexts, one per seat, each opening its
 * seat's link on the page the server itself serves, play a whole game by clicks through the
 * playground's DOM contract. On the way:
 *
 * - a forged move (in the other seat's name) and an out-of-turn move, sent from a page over its
 *   own WebSocket, are refused with the documented codes, and neither page changes;
 * - one seat goes offline while the other plays its turn, comes back, and resyncs to the very view
 *   a fresh page of that seat shows;
 * - the server is killed (SIGKILL) with a move in flight and restarted on the same port and SQLite
 *   file; the pages reconnect by themselves and the game goes on with nothing lost: every version
 *   a page showed is in the log.
 *
 * At the end both pages say the game is over with the scores of the server's final state (the
 * stored log replayed from the stored seed), and no page logged an error other than the expected
 * failed reconnections while the server was down.
 *
 * Skipped, saying why, without Chromium or the playground's build (MEEPLEKIT_REQUIRE_BROWSER=1
 * makes that a failure).
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord, LogEntry } from '../src/store.js';
import { expectNoProblems, playOnline, type Table } from './browser-game.js';
import { browserSkipReason, chooser, launchBrowser, PLAYGROUND_DIR, REQUIRE_BROWSER, SeatPage, seatLink } from './browser-harness.js';
import { Client, expectNoSeeds, received, startServerProcess, tempDb, type ServerProcess } from './helpers.js';

const reason = browserSkipReason();
if (reason !== null) process.stderr.write(`browser.test.ts: ${REQUIRE_BROWSER ? 'FAILS' : 'skipped'}: ${reason}\n`);

const db = tempDb();
let server: ServerProcess | undefined;
let browser: Browser | undefined;
/** Every message the server sends a page goes into the seed scan. */
const watch = { onServerMessage: (text: string) => void received.push(text) };

/** The game's record and log as stored in the SQLite file. */
function stored(game: string): { record: GameRecord; log: LogEntry[] } {
  const file = new Database(db, { readonly: true });
  const row = file.prepare('SELECT record FROM games WHERE id = ?').get(game) as { record: string };
  const log = (file.prepare('SELECT entry FROM log WHERE game = ? ORDER BY version').all(game) as { entry: string }[]).map((r) => JSON.parse(r.entry) as LogEntry);
  file.close();
  return { record: JSON.parse(row.record) as GameRecord, log };
}

describe.skipIf(reason !== null && !REQUIRE_BROWSER)('the playground online through the server, in Chromium', () => {
  beforeAll(async () => {
    if (reason !== null) throw new Error(reason);
    browser = await launchBrowser();
    server = await startServerProcess({ MEEPLEKIT_DB: db, MEEPLEKIT_PLAYGROUND: PLAYGROUND_DIR });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server !== undefined) expectNoSeeds(db);
    rmSync(dirname(db), { recursive: true, force: true });
  });

  it('the page at / plays through this server: Start creates the game here, and the other seat’s link joins it', async () => {
    const port = server!.port;
    const first = await SeatPage.open(browser!, 'creator', `http://127.0.0.1:${port}/`, watch);
    // Sent on to the page with this server's address.
    expect(first.page.url()).toBe(`http://127.0.0.1:${port}/?${new URLSearchParams({ server: `ws://127.0.0.1:${port}` })}`);
    await first.page.locator('#game').selectOption('classic');
    await first.page.locator('#players').selectOption('2');
    await first.page.locator('select[data-seat="1"]').selectOption('human');
    await first.page.locator('#start').click();
    expect(await first.waitVersion(0)).toEqual({ state: 'human', player: 0, version: 0 });
    const invite = await first.page.locator('#invites a[data-seat="1"]').getAttribute('href');
    const link = new URL(invite!, first.page.url());
    const game = link.searchParams.get('game')!;
    expect(stored(game).log).toEqual([]);
    const second = await SeatPage.open(browser!, 'invited', link.href, watch);
    expect(await second.waitVersion(0)).toMatchObject({ state: 'waiting', player: 0, version: 0 });
    await first.clickMove(chooser(1));
    for (const p of [first, second]) await p.waitVersion(1);
    expect(stored(game).log).toHaveLength(1);
    expect(await first.picture()).toBe(await second.picture());
    expectNoProblems([first, second], [], []);
    await first.close();
    await second.close();
  });

  it('two contexts play a whole game: refusals change nothing, an offline seat resyncs, a SIGKILLed server comes back with nothing lost', async () => {
    const port = server!.port;
    const creator = await Client.connect(server!.url);
    const created = await creator.create({ game: 'classic', expansions: ['tower'], players: 2 });
    await creator.close();
    const game = created.game as string;
    const tokens = created.seats.map((s: { token: string }) => s.token) as string[];
    const pages = [await SeatPage.open(browser!, 'seat 0', seatLink(port, game, tokens[0]!), watch), await SeatPage.open(browser!, 'seat 1', seatLink(port, game, tokens[1]!), watch)];
    const table: Table = { browser: browser!, ports: [port, port], game, tokens, pages, stored: async () => stored(game) };

    const result = await playOnline(table, {
      seed: 7,
      refuseAt: 6,
      offlineAt: 14,
      killAt: 30,
      kill: async () => {
        await server!.kill();
        return stored(game).log.length;
      },
      restart: async () => {
        server = await startServerProcess({ MEEPLEKIT_DB: db, MEEPLEKIT_PLAYGROUND: PLAYGROUND_DIR, PORT: String(port) });
      },
    });
    expect(result.killed).toBe(true);
    process.stderr.write(`browser.test.ts: ${result.moves} moves (the one in flight at the kill ${result.inFlightStored ? 'stored' : 'not stored'}); clicks ${JSON.stringify(pages.map((p) => p.clicks))}; logged ${JSON.stringify(pages.map((p) => p.problems.map((x) => x.text)))}\n`);
    // While the server was down, and only then, Chromium says a reconnection failed.
    expectNoProblems(pages, result.downtime, [new RegExp(`^WebSocket connection to 'ws://127\\.0\\.0\\.1:${port}/' failed: Error in connection establishment: net::ERR_CONNECTION_REFUSED$`)]);
    for (const p of pages) await p.close();
  });
});
