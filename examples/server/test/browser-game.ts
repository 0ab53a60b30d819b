/**
 * A whole online game played by clicks in two seats' pages (browser-harness.ts), with the checks
 * the browser tests make on the way: refusals that change nothing, a seat that goes offline and
 * resyncs, a server killed and restarted. Shared by the SQLite and the PostgreSQL browser tests.
 */
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { LiveGame } from '../src/game.js';
import type { GameRecord, LogEntry } from '../src/store.js';
import { chooser, SeatPage, seatLink, type PageProblem } from './browser-harness.js';
import { received } from './helpers.js';

/** Two seats' pages on one game, and where its record and log are stored. */
export interface Table {
  readonly browser: Browser;
  readonly game: string;
  readonly tokens: readonly string[];
  /** The port of the server process each seat's page is connected to. */
  readonly ports: readonly number[];
  readonly pages: readonly SeatPage[];
  /** The game's record and log, read from the database. */
  stored(): Promise<{ record: GameRecord; log: LogEntry[] }>;
}

export interface PlayOptions {
  /** The seed of the clicks' choices. */
  readonly seed: number;
  /** At this version (or the first after it), the refusal checks. */
  readonly refuseAt?: number;
  /** At the first turn's start from this version, the seat that does not decide goes offline for the other's turn. */
  readonly offlineAt?: number;
  /** At this version, a move is sent and the server killed at once; `kill` returns the log's length after the kill, and `restart` starts the server again on the same port. */
  readonly killAt?: number;
  readonly kill?: () => Promise<number>;
  readonly restart?: () => Promise<void>;
}

export interface Played {
  /** The moves clicked whose update came back (the in-flight one at the kill counted if stored). */
  readonly moves: number;
  readonly killed: boolean;
  /** Whether the move sent as the server was killed had been stored (null: no kill). */
  readonly inFlightStored: boolean | null;
  /** When the server was down, until both pages had caught up again: the only time an error may be logged. */
  readonly downtime: readonly { readonly from: number; readonly to: number }[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs in a page: opens a WebSocket of its own to the server, joins the game as the token's seat,
 * sends `messages` one by one, and returns the view it was sent and each reply (by request id).
 * Self-contained: playwright sends its source to the page.
 */
async function rawSession(args: { url: string; game: string; token: string; messages: Record<string, unknown>[] }): Promise<{ view: Record<string, any>; replies: Record<string, any>[] }> {
  const WS = (globalThis as any).WebSocket;
  const ws = new WS(args.url);
  const inbox: Record<string, any>[] = [];
  let wake: (() => void) | null = null;
  ws.onmessage = (e: { data: string }) => {
    inbox.push(JSON.parse(e.data));
    wake?.();
  };
  const next = async (pred: (m: Record<string, any>) => boolean): Promise<Record<string, any>> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = inbox.find(pred);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('raw session: no reply');
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 200);
      });
    }
  };
  await next((m) => m.type === 'hello');
  ws.send(JSON.stringify({ id: 'join', type: 'join', game: args.game, token: args.token }));
  await next((m) => m.id === 'join');
  const view = await next((m) => m.type === 'view');
  const replies: Record<string, any>[] = [];
  for (const [i, message] of args.messages.entries()) {
    ws.send(JSON.stringify({ ...message, id: `r${i}` }));
    replies.push(await next((m) => m.id === `r${i}`));
  }
  ws.close();
  return { view, replies };
}

/** What a seat's page shows: status, board, scores and supply. */
async function shown(p: SeatPage): Promise<unknown> {
  return { status: await p.status(), board: await p.board(), scores: await p.scores(), supply: await p.page.locator('#supply').innerHTML() };
}

/** A new page for a seat (its own context, a fresh join) shows exactly what `p` shows at `version`. */
async function expectSameAsFreshPage(t: Table, seat: number, version: number): Promise<void> {
  const fresh = await SeatPage.open(t.browser, `seat ${seat} (fresh)`, seatLink(t.ports[seat]!, t.game, t.tokens[seat]!), { onServerMessage: (text) => void received.push(text) });
  try {
    await fresh.waitVersion(version);
    await t.pages[seat]!.waitVersion(version);
    expect(await shown(t.pages[seat]!)).toEqual(await shown(fresh));
    expect(fresh.problems).toEqual([]);
  } finally {
    await fresh.close();
  }
}

/** A forged move and an out-of-turn move, sent from the waiting seat's page over its own WebSocket: refused, and neither page changes. */
async function refusalsChangeNothing(t: Table, decider: number, version: number): Promise<void> {
  const other = 1 - decider;
  const before = await Promise.all(t.pages.map(shown));
  const url = (seat: number): string => `ws://127.0.0.1:${t.ports[seat]}`;
  // The decider's legal moves, from a connection of its own in its page.
  const mine = await t.pages[decider]!.page.evaluate(rawSession, { url: url(decider), game: t.game, token: t.tokens[decider]!, messages: [] });
  expect(mine.view.version).toBe(version);
  const legal = mine.view.legal as Record<string, unknown>[];
  expect(legal.length).toBeGreaterThan(0);
  const { replies } = await t.pages[other]!.page.evaluate(rawSession, {
    url: url(other),
    game: t.game,
    token: t.tokens[other]!,
    messages: [
      // In the decider's name: forged.
      { type: 'move', game: t.game, version, move: legal[0] },
      // In its own name, out of turn: the library refuses it.
      { type: 'move', game: t.game, version, move: { ...legal[0], player: other } },
    ],
  });
  expect(replies[0]).toMatchObject({ type: 'refused', code: 'server/not-your-seat', game: t.game });
  expect(replies[1]).toMatchObject({ type: 'refused', code: 'move/not-your-turn' });
  await sleep(500);
  expect(await Promise.all(t.pages.map(shown))).toEqual(before);
  expect((await t.stored()).log.length).toBe(version);
}

/** The waiting seat goes offline while the decider plays its turn (two moves or more), then comes back and resyncs by itself. */
async function offlineAndBack(t: Table, decider: number, pick: (n: number) => number): Promise<number> {
  const other = 1 - decider;
  const away = t.pages[other]!;
  const { version: left } = await away.status();
  await away.setOffline(true);
  let played = 0;
  for (;;) {
    const s = await t.pages[decider]!.status();
    if (s.state !== 'human') break;
    await t.pages[decider]!.clickMove(pick);
    await t.pages[decider]!.waitVersion(s.version! + 1);
    played++;
  }
  const now = (await t.pages[decider]!.status()).version!;
  expect(played).toBeGreaterThanOrEqual(2);
  // Cut off: the page heard of none of them.
  expect((await away.status()).version).toBe(left);
  const since = away.inbox.length;
  await away.setOffline(false);
  await away.waitVersion(now);
  // It joined again with the version it had, and was sent one delta from there to now.
  const back = away.inbox.slice(since).map((text) => JSON.parse(text) as Record<string, unknown>);
  const joined = back.findIndex((m) => m['type'] === 'joined');
  expect(joined).toBeGreaterThanOrEqual(0);
  expect(back[joined + 1]).toMatchObject({ type: 'update', version: now });
  await expectSameAsFreshPage(t, other, now);
  return played;
}

/**
 * Plays the table's game to its end by clicks, making the checks `options` asks for on the way;
 * then checks the end: both pages over, at the stored log's version, with the scores of the state
 * the stored log leads to from the stored seed.
 */
export async function playOnline(t: Table, options: PlayOptions): Promise<Played> {
  const pick = chooser(options.seed);
  let moves = 0;
  let killed = false;
  let inFlightStored: boolean | null = null;
  let refused = false;
  let offline = false;
  const downtime: { from: number; to: number }[] = [];
  let idleSince = Date.now();
  for (;;) {
    const st = await Promise.all(t.pages.map((p) => p.status()));
    if (st.every((s) => s.state === 'over')) break;
    const i = st.findIndex((s) => s.state === 'human');
    if (i < 0) {
      if (Date.now() - idleSince > 60_000) throw new Error(`no seat decides for a minute: ${JSON.stringify(st)}`);
      await sleep(50);
      continue;
    }
    idleSince = Date.now();
    const version = st[i]!.version!;
    if (options.refuseAt !== undefined && !refused && version >= options.refuseAt) {
      await refusalsChangeNothing(t, i, version);
      refused = true;
    } else if (options.offlineAt !== undefined && !offline && version >= options.offlineAt && (await t.pages[i]!.placing())) {
      moves += await offlineAndBack(t, i, pick);
      offline = true;
    } else if (options.killAt !== undefined && !killed && version >= options.killAt) {
      // A move sent, and the process killed at once: stored or not, never half, and nothing anyone saw is lost.
      const seen = Math.max(...st.map((s) => s.version!));
      const before = (await t.stored()).log;
      expect(before).toHaveLength(version);
      const from = Date.now();
      await t.pages[i]!.clickMove(pick);
      const logged = await options.kill!();
      expect(logged).toBeGreaterThanOrEqual(seen);
      expect(logged).toBeLessThanOrEqual(version + 1);
      inFlightStored = logged === version + 1;
      if (inFlightStored) moves++;
      // The log holds every entry it held before, unchanged.
      expect((await t.stored()).log.slice(0, version)).toEqual(before);
      await sleep(1000); // the pages try to reconnect meanwhile, and fail
      await options.restart!();
      // Back by themselves, at the stored version, each showing what a fresh page of its seat shows.
      for (const p of t.pages) await p.waitVersion(logged, 120_000);
      downtime.push({ from, to: Date.now() });
      for (const seat of [0, 1]) await expectSameAsFreshPage(t, seat, logged);
      killed = true;
    } else {
      await t.pages[i]!.clickMove(pick);
      await Promise.all(t.pages.map((p) => p.waitVersion(version + 1)));
      moves++;
    }
  }

  // The end: the stored log, replayed from the stored seed, is the game the pages show.
  const { record, log } = await t.stored();
  expect(log.every((e) => e.type === 'move')).toBe(true);
  expect(log.length).toBe(moves);
  const final = LiveGame.rebuild(record, log);
  expect(final.state.step.kind).toBe('game-over');
  const scores = [...final.view(null).scores];
  for (const p of t.pages) {
    expect(await p.status()).toMatchObject({ state: 'over', version: log.length });
    expect(await p.scores()).toEqual(scores);
    expect(await p.error()).toBe('');
  }
  return { moves, killed, inFlightStored, downtime };
}

/**
 * No page logged an error, except, while the server was down, Chromium's line for a WebSocket
 * that could not connect to it (`allowed`, one pattern per kind of line).
 */
export function expectNoProblems(pages: readonly SeatPage[], downtime: Played['downtime'], allowed: readonly RegExp[]): void {
  for (const p of pages) {
    const unexpected = p.problems.filter((problem: PageProblem) => !downtime.some((d) => problem.at >= d.from && problem.at <= d.to) || !allowed.some((re) => re.test(problem.text)));
    expect(unexpected.map((u) => `${p.label}: ${u.text}`)).toEqual([]);
  }
}
