/**
 * The docs playground online through two server processes on one PostgreSQL database, in a real
 * browser: seat 0's page is served by and connected to process one, seat 1's to process two; they
 * play a whole game by clicks (each process tells its pages of the other's moves by LISTEN/NOTIFY),
 * a forged and an out-of-turn move are refused on the way, and at the end both pages show the
 * same final view, which is the state the log stored in the database leads to.
 *
 * Skipped, saying why, without PostgreSQL (test/pg-cluster.ts), Chromium or the playground's
 * build (MEEPLEKIT_REQUIRE_BROWSER=1 makes a missing browser or build a failure).
 */
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord, LogEntry } from '../src/store.js';
import { expectNoProblems, playOnline, type Table } from './browser-game.js';
import { browserSkipReason, launchBrowser, PLAYGROUND_DIR, REQUIRE_BROWSER, SeatPage, seatLink } from './browser-harness.js';
import { Client, expectNoSeeds, received, startServerProcess, type ServerProcess } from './helpers.js';
import { pgSkipReason, postgresForFile } from './pg-cluster.js';

const browserReason = browserSkipReason();
const reason = pgSkipReason ?? browserReason;
if (reason !== null) process.stderr.write(`browser-postgres.test.ts: ${browserReason !== null && REQUIRE_BROWSER ? 'FAILS' : 'skipped'}: ${reason}\n`);

const database = postgresForFile();
const servers: ServerProcess[] = [];
let browser: Browser | undefined;
/** Every message the server sends a page goes into the seed scan. */
const watch = { onServerMessage: (text: string) => void received.push(text) };

async function query<T>(sql: string, params: unknown[]): Promise<T[]> {
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    return (await db.query(sql, params)).rows as T[];
  } finally {
    await db.end();
  }
}

async function stored(game: string): Promise<{ record: GameRecord; log: LogEntry[] }> {
  const [row] = await query<{ record: GameRecord }>('SELECT record FROM games WHERE id = $1', [game]);
  const entries = await query<{ version: number; entry: LogEntry }>('SELECT version, entry FROM log WHERE game = $1 ORDER BY version', [game]);
  // One entry per version from 1, no gap and no fork.
  expect(entries.map((e) => e.version)).toEqual(entries.map((_, i) => i + 1));
  return { record: row!.record, log: entries.map((e) => e.entry) };
}

describe.skipIf(pgSkipReason !== null || (browserReason !== null && !REQUIRE_BROWSER))('the playground online through two server processes on PostgreSQL, in Chromium', () => {
  beforeAll(async () => {
    if (browserReason !== null) throw new Error(browserReason);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    if (servers.length > 0) expectNoSeeds((await query<{ record: GameRecord }>('SELECT record FROM games', [])).map((r) => r.record.seed));
  });

  it('seat 0 on process one, seat 1 on process two: a whole game by clicks, the same final view, the stored log is the game played', async () => {
    const env = { DATABASE_URL: database.url, MEEPLEKIT_PLAYGROUND: PLAYGROUND_DIR };
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    const ports = servers.map((s) => s.port);
    const creator = await Client.connect(servers[0]!.url);
    const created = await creator.create({ game: 'classic', expansions: ['tower'], players: 2 });
    await creator.close();
    const game = created.game as string;
    const tokens = created.seats.map((s: { token: string }) => s.token) as string[];
    const pages = [await SeatPage.open(browser!, 'seat 0 (process one)', seatLink(ports[0]!, game, tokens[0]!), watch), await SeatPage.open(browser!, 'seat 1 (process two)', seatLink(ports[1]!, game, tokens[1]!), watch)];
    const table: Table = { browser: browser!, ports, game, tokens, pages, stored: () => stored(game) };

    await playOnline(table, { seed: 21, refuseAt: 8 });
    // The same final view in both pages, apart from whose page it is: the board and the scores.
    expect(await pages[0]!.board()).toBe(await pages[1]!.board());
    expect(await pages[0]!.scores()).toEqual(await pages[1]!.scores());
    expectNoProblems(pages, [], []);
    for (const p of pages) await p.close();
  });
});
