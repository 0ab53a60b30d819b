/**
 * Test helpers: a server in a child process (so that a test can SIGKILL it; server-process.ts,
 * re-exported here), and a WebSocket client that keeps each game's view up to date from the server's views and deltas with
 * meeplekit's applyViewDelta, as a real client would.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyViewDelta, type Move, type PublicView } from 'meeplekit';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServerProcess, tempDb, type ServerProcess } from './server-process.js';

export { startServerProcess, tempDb, type ServerProcess };

/** Every text any test client received: scanned for seeds at the end. */
export const received: string[] = [];

/**
 * One server process on a new SQLite file for the whole test file; after it, the seed scan of
 * everything the file's clients received, and the file removed.
 */
export function sqliteServerForFile(): { readonly url: string } {
  const db = tempDb();
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServerProcess({ MEEPLEKIT_DB: db });
  });
  afterAll(async () => {
    await server?.stop();
    expectNoSeeds(db);
    rmSync(dirname(db), { recursive: true, force: true });
  });
  return {
    get url() {
      return server!.url;
    },
  };
}

type Message = Record<string, any>;

export interface GameCopy {
  view: PublicView | null;
  version: number;
  legal: Move[] | undefined;
  seat: number | null;
}

export class Client {
  readonly inbox: Message[] = [];
  readonly games = new Map<string, GameCopy>();
  private waiters: { pred: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private nextId = 1;
  closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('message', (data) => {
      const text = data.toString();
      received.push(text);
      const m = JSON.parse(text) as Message;
      this.track(m);
      this.inbox.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(m), false) : true));
    });
  }

  static async connect(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    const client = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await client.wait((m) => m.type === 'hello', 20_000, 0);
    return client;
  }

  /** What a client does with views and deltas: keep the view; a delta that does not fit means resync. */
  private track(m: Message): void {
    const copy = typeof m.game === 'string' ? this.games.get(m.game) : undefined;
    if (m.type === 'joined') this.games.set(m.game, { view: this.games.get(m.game)?.view ?? null, version: -1, legal: undefined, seat: m.seat });
    else if (copy !== undefined && m.type === 'view') Object.assign(copy, { view: m.view, version: m.version, legal: m.legal });
    else if (copy !== undefined && m.type === 'update') {
      const next = copy.view === null ? null : applyViewDelta(copy.view, m.delta);
      if (next === null || !next.ok) {
        this.mismatches++;
        this.send({ type: 'resync', game: m.game });
      } else Object.assign(copy, { view: next.value, version: m.version, legal: m.legal });
    }
  }

  mismatches = 0;

  send(message: Message): number {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, ...message }));
    return id;
  }

  /** The first message from now on (or already in the inbox after `since`) that matches. */
  wait(pred: (m: Message) => boolean, timeoutMs = 120_000, since = this.inbox.length): Promise<Message> {
    const there = this.inbox.slice(since).find(pred);
    if (there !== undefined) return Promise.resolve(there);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** When `request` last sent (it keeps under the server's rate limit, as a real client must). */
  lastRequest = 0;

  /**
   * Sends a request and waits for the reply that carries its id. Requests are paced at 15 a second
   * at most, under the server's limit (20 a second after a burst of 40): a message over the limit
   * is dropped unparsed, so its refusal carries no id and the wait would never end.
   */
  async request(message: Message): Promise<Message> {
    const wait = this.lastRequest + 1000 / 15 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastRequest = Date.now();
    const since = this.inbox.length;
    const id = this.send(message);
    return this.wait((m) => m.id === id, 120_000, since);
  }

  async create(config: Message, seats?: unknown[]): Promise<Message> {
    const reply = await this.request({ type: 'create', config, ...(seats ? { seats } : {}) });
    if (reply.type !== 'created') throw new Error(JSON.stringify(reply));
    return reply;
  }

  /** Joins (with a seat token, or as a spectator) and waits for the view or the delta that follows. */
  async join(game: string, token?: string, version?: number): Promise<GameCopy> {
    const since = this.inbox.length;
    const reply = await this.request({ type: 'join', game, ...(token ? { token } : {}), ...(version === undefined ? {} : { version }) });
    if (reply.type !== 'joined') throw new Error(JSON.stringify(reply));
    await this.wait((m) => m.game === game && (m.type === "view" || m.type === "update"), 120_000, since);
    return this.games.get(game)!;
  }

  async waitVersion(game: string, version: number, timeoutMs = 120_000): Promise<GameCopy> {
    const deadline = Date.now() + timeoutMs;
    while ((this.games.get(game)?.version ?? -1) < version) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for version ${version} (at ${this.games.get(game)?.version})`);
      await this.wait((m) => m.game === game && (m.type === 'update' || m.type === 'view'), deadline - Date.now()).catch(() => {});
    }
    return this.games.get(game)!;
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closed;
  }
}

/** Whose decision it is, as the view says (null when the game is over). */
export function decider(view: PublicView): number | null {
  return view.step.kind === 'game-over' ? null : (view.step as { player: number }).player;
}

/** A small deterministic generator for the test players' choices. */
export function chooser(seed: number): <T>(list: readonly T[]) => T {
  let s = seed >>> 0;
  return (list) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return list[s % list.length]!;
  };
}

/**
 * Human clients play random legal moves (the server sends each decider its legal moves) until
 * `moves` more entries are stored or the game is over; bots play their seats on the server.
 * Returns the version reached.
 */
export async function play(clients: readonly Client[], game: string, options: { moves?: number; seed?: number } = {}): Promise<number> {
  const pick = chooser(options.seed ?? 1);
  const watcher = clients[0]!;
  const start = watcher.games.get(game)!.version;
  for (;;) {
    // The watcher's view and version, read together (a bot may have made several moves).
    const { view, version } = watcher.games.get(game)!;
    if (decider(view!) === null || (options.moves !== undefined && version - start >= options.moves)) return version;
    const mover = clients.find((c) => c.games.get(game)!.seat === decider(view!));
    if (mover !== undefined) {
      const copy = await mover.waitVersion(game, version);
      const reply = await mover.request({ type: 'move', game, version, move: pick(copy.legal!) });
      if (reply.type !== 'update') throw new Error(`refused: ${JSON.stringify(reply)}`);
    }
    for (const c of clients) await c.waitVersion(game, version + 1);
  }
}

/** Every game's seed in a SQLite file. */
export function sqliteSeeds(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT record FROM games').all() as { record: string }[];
  db.close();
  return rows.map((r) => (JSON.parse(r.record) as { seed: string }).seed);
}

/**
 * No game's seed (nor either half of it, in either case) is in anything a client of this test
 * file received: `seeds` come from the database (a file name: SQLite).
 */
export function expectNoSeeds(seedsOrFile: string | readonly string[]): void {
  const seeds = typeof seedsOrFile === 'string' ? sqliteSeeds(seedsOrFile) : seedsOrFile;
  expect(seeds.length).toBeGreaterThan(0);
  expect(received.length).toBeGreaterThan(0);
  for (const seed of seeds) {
    expect(seed).toMatch(/^[0-9a-f]{32}$/);
    const parts = [seed, seed.toUpperCase(), seed.slice(0, 16), seed.slice(16)];
    for (const text of received) for (const part of parts) expect(text.includes(part), `a message holds a seed: ${text.slice(0, 200)}`).toBe(false);
  }
}
