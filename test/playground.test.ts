/**
 * The playground's pure parts (playground/src): the labels of every decision of every game and
 * expansion (all legal non-placement moves of the positions of seeded random games get distinct,
 * non-empty labels, each kind of move its own words), and restoring a saved game (a tampered or
 * corrupt entry refused with a message, never a crash). The modules are bundled with esbuild with
 * the package's names mapped to src/, as the playground's build does, and imported from the
 * bundle (one copy of the engine).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { GameEvent, GameState, Move, PublicView, Result, MeepleError, NewGameOptions, Ruleset, Transition, UndoOptions, ViewDelta } from '../src/index.js';
import { byDepth } from './depth.js';

type Checked<T> = { ok: true; value: T } | { ok: false; message: string };
interface Saved {
  config: { seats: unknown[] };
  state: GameState;
}
interface Store {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
/** What playground/test-entry.ts exports (bundled here with the engine it uses). */
interface Bundle {
  applyMove(rules: Ruleset, state: GameState, move: Move): Result<Transition, MeepleError>;
  legalMoves(rules: Ruleset, state: GameState): Move[];
  newGame(rules: Ruleset, options: NewGameOptions): Result<GameState, MeepleError>;
  publicView(rules: Ruleset, state: GameState, viewer: number | null): Result<PublicView, MeepleError>;
  choicesOf(legal: readonly Move[]): Move[];
  LABELLED_MOVES: readonly string[];
  moveLabels(rules: Ruleset, view: PublicView, moves: readonly Move[]): string[];
  rulesFor(game: 'classic' | 'castle', expansions: readonly string[]): Checked<Ruleset>;
  undo(rules: Ruleset, state: GameState, count: number, options: UndoOptions & { events: true }): Result<Transition, MeepleError>;
  viewDelta(from: PublicView, to: PublicView, options?: { events?: readonly GameEvent[] }): Result<ViewDelta, MeepleError>;
  eventLines(events: readonly GameEvent[]): string[];
  REASON_WORDS: Readonly<Record<string, string>>;
  WORDED_EXPANSION_EVENTS: readonly string[];
  newLocalSession(config: unknown, options: { store: Store; bots: unknown; botDelay: number }): Checked<PageSession>;
  onlineSession(options: { server: string; join?: { game: string; token: string | null }; linkFor: (game: string, token: string) => string }): PageSession;
  savedText(config: unknown, state: GameState): string;
  restoreText(text: string): Checked<Saved>;
  restore(store: Store): Checked<Saved> | null;
  clear(store: Store): void;
}

/** What the page's UI reads of a session (playground/src/session.ts). */
interface PageSession {
  readonly view: PublicView | null;
  readonly state: string;
  readonly deciding: number | null;
  readonly legal: readonly Move[];
  readonly log: readonly string[];
  readonly error: string;
  readonly canUndo: boolean;
  submit(move: Move): void;
  undo(): void;
  close(): void;
}

const root = fileURLToPath(new URL('..', import.meta.url));
let dir: string;
let pg: Bundle;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meeplekit-playground-unit-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, `export * from ${JSON.stringify(join(root, 'playground/test-entry.ts'))};\n`);
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', target: 'es2022', outfile: join(dir, 'bundle.mjs'), tsconfig: join(root, 'playground/tsconfig.json'), logLevel: 'warning' });
  pg = (await import(pathToFileURL(join(dir, 'bundle.mjs')).href)) as Bundle;
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const CONFIGS: { game: 'classic' | 'castle'; expansions: string[]; players: number }[] = [
  { game: 'classic', expansions: [], players: 3 },
  ...['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'].map((e) => ({ game: 'classic' as const, expansions: [e], players: 3 })),
  { game: 'classic', expansions: ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'], players: 4 },
  { game: 'castle', expansions: [], players: 2 },
];

describe('move labels', () => {
  test.each(CONFIGS)('every decision of $game with [$expansions]: distinct non-empty labels, each kind its own words', ({ game, expansions, players }) => {
    const rules = pg.rulesFor(game, expansions);
    if (!rules.ok) throw new Error(rules.message);
    const seen = new Set<string>();
    // Many positions: the step's decider's view at each.
    const games = byDepth(4, 2);
    for (let g = 0; g < games; g++) {
      const created = pg.newGame(rules.value, { players, seed: `labels/${g}` });
      if (!created.ok) throw new Error(created.error.message);
      let state = created.value;
      let i = 0;
      while (state.step.kind !== 'game-over') {
        const legal = pg.legalMoves(rules.value, state);
        const choices = pg.choicesOf(legal);
        if (choices.length > 0) {
          const view = pg.publicView(rules.value, state, state.step.player);
          if (!view.ok) throw new Error(view.error.message);
          const labels = pg.moveLabels(rules.value, view.value, choices);
          expect(labels.length).toBe(choices.length);
          for (const l of labels) expect(l.trim().length).toBeGreaterThan(0);
          expect(new Set(labels).size, `${JSON.stringify(choices)} -> ${JSON.stringify(labels)}`).toBe(labels.length);
          for (const m of choices) {
            seen.add(m.type);
            expect(pg.LABELLED_MOVES, `no words for ${m.type}`).toContain(m.type);
          }
        }
        // Mostly the first move (follower decisions get taken), sometimes another.
        const next = pg.applyMove(rules.value, state, legal[(i++ * 7) % 5 === 0 ? (i * 13) % legal.length : 0]!);
        if (!next.ok) throw new Error(next.error.message);
        state = next.value.state;
      }
    }
    expect(seen.has('pass') || game === 'castle').toBe(true);
  });

  test('a follower on a feature says what and where; the dragon says which way', () => {
    const rules = pg.rulesFor('classic', []);
    if (!rules.ok) throw new Error(rules.message);
    const game = pg.newGame(rules.value, { players: 2, seed: 'words' });
    if (!game.ok) throw new Error(game.error.message);
    const place = pg.legalMoves(rules.value, game.value)[0]!;
    const placed = pg.applyMove(rules.value, game.value, place);
    if (!placed.ok) throw new Error(placed.error.message);
    const view = pg.publicView(rules.value, placed.value.state, 0);
    if (!view.ok) throw new Error(view.error.message);
    const labels = pg.moveLabels(rules.value, view.value, pg.choicesOf(pg.legalMoves(rules.value, placed.value.state)));
    expect(labels).toContain('No follower');
    for (const l of labels.filter((x) => x !== 'No follower')) expect(l).toMatch(/^Follower on the (city|road|field|cloister)( \((north|east|south|west)(, (north|east|south|west))*\))?$/);
  });
});

describe('restoring a saved game', () => {
  function savedGame(): { text: string; moves: number } {
    const config = { game: 'classic' as const, expansions: ['tower'], players: 2, seats: ['human' as const, { bot: 1 }], seed: 'saved' };
    const rules = pg.rulesFor(config.game, config.expansions);
    if (!rules.ok) throw new Error(rules.message);
    const game = pg.newGame(rules.value, { players: 2, seed: config.seed });
    if (!game.ok) throw new Error(game.error.message);
    let state = game.value;
    for (let i = 0; i < 9; i++) {
      const next = pg.applyMove(rules.value, state, pg.legalMoves(rules.value, state)[0]!);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value.state;
    }
    return { text: pg.savedText(config, state), moves: state.moves.length };
  }

  test('a saved game comes back as it was', () => {
    const { text, moves } = savedGame();
    const back = pg.restoreText(text);
    if (!back.ok) throw new Error(back.message);
    expect(back.value.state.moves.length).toBe(moves);
    expect(back.value.config.seats).toEqual(['human', { bot: 1 }]);
  });

  test.each([
    ['not JSON', (t: string) => t.slice(0, -3), /not JSON/],
    ['another format', (t: string) => t.replace('"meeplekit-playground"', '"other"'), /format/],
    ['a score edited by hand', (t: string) => edit(t, (s) => ((s['state'] as { scores: number[] }).scores[0] = 42)), /refused/],
    ['a move edited by hand', (t: string) => edit(t, (s) => ((s['state'] as { moves: { x?: number }[] }).moves[0]!.x = 40)), /refused/],
    ['a configuration of 6 players', (t: string) => t.replace('"players":2', '"players":6'), /players/],
    ['an unknown expansion', (t: string) => t.replace('"expansions":["tower"]', '"expansions":["pioneer"]'), /expansions/],
    ['another game than the state', (t: string) => t.replace('"expansions":["tower"]', '"expansions":[]'), /refused/],
    ['a bad seat', (t: string) => t.replace('{"bot":1}', '{"bot":9}'), /seat/],
  ])('%s is refused with a message', (_, tamper, message) => {
    const back = pg.restoreText(tamper(savedGame().text));
    expect(back.ok).toBe(false);
    if (!back.ok) expect(back.message).toMatch(message);
  });

  test('storage: nothing saved is null; a store that throws is no crash', () => {
    const map = new Map<string, string>();
    const store = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
    expect(pg.restore(store)).toBeNull();
    const broken = {
      getItem: (): string => {
        throw new Error('denied');
      },
      setItem: (): void => {
        throw new Error('full');
      },
      removeItem: (): void => {
        throw new Error('denied');
      },
    };
    expect(pg.restore(broken)).toBeNull();
    expect(() => pg.clear(broken)).not.toThrow();
  });
});

/** Edits the state inside a saved text. */
function edit(text: string, change: (state: Record<string, unknown>) => void): string {
  const entry = JSON.parse(text) as { state: string };
  const inner = JSON.parse(entry.state) as Record<string, unknown>;
  change(inner);
  return JSON.stringify({ ...entry, state: JSON.stringify(inner) });
}

/** A small seeded generator (mulberry32), for the sessions' random games. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An event type or score reason as the engine names it: `<module>/<name>`. */
const RAW_TYPE = /\b[a-z]+(?:-[a-z]+)*\/[a-z]+(?:-[a-z]+)*\b/;

describe('event log lines', () => {
  test.each(CONFIGS)('every event of random games of $game with [$expansions] in words: no raw module type, nothing undefined', ({ game, expansions, players }) => {
    const rules = pg.rulesFor(game, expansions);
    if (!rules.ok) throw new Error(rules.message);
    const types = new Set<string>();
    let lines = 0;
    for (let g = 0; g < byDepth(4, 2); g++) {
      const random = generator(g * 101 + players);
      const created = pg.newGame(rules.value, { players, seed: `events/${g}` });
      if (!created.ok) throw new Error(created.error.message);
      let state = created.value;
      while (state.step.kind !== 'game-over') {
        let events: readonly GameEvent[];
        const back = state.moves.length > 2 && random() < 0.03 ? pg.undo(rules.value, state, 1, { events: true }) : null;
        if (back !== null && back.ok) {
          state = back.value.state;
          events = back.value.events;
        } else {
          const legal = pg.legalMoves(rules.value, state);
          // Mostly a follower or an action taken (the last choices are passes and declines), sometimes any.
          const next = pg.applyMove(rules.value, state, legal[random() < 0.5 ? 0 : Math.floor(random() * legal.length)]!);
          if (!next.ok) throw new Error(next.error.message);
          state = next.value.state;
          events = next.value.events;
        }
        for (const e of events) {
          types.add(e.type);
          if (e.type.includes('/')) expect(pg.WORDED_EXPANSION_EVENTS, `no words for ${e.type}`).toContain(e.type);
          if (e.type === 'scored' && e.reason.includes('/')) expect(Object.keys(pg.REASON_WORDS), `no words for the reason ${e.reason}`).toContain(e.reason);
        }
        for (const line of pg.eventLines(events)) {
          lines++;
          expect(line, JSON.stringify(events)).not.toMatch(RAW_TYPE);
          expect(line, JSON.stringify(events)).not.toMatch(/undefined|NaN|null|\[object/);
        }
      }
    }
    expect(lines).toBeGreaterThan(50);
    // Each expansion's own events came up (The River has none; the shrines' challenges are rare).
    for (const id of expansions.filter((e) => e !== 'river' && e !== 'shrines')) expect([...types].some((t) => t.startsWith(`${id}/`)), `no event of ${id}`).toBe(true);
  });

  test("an event of a module the page does not know is named in words, not by its type", () => {
    const lines = pg.eventLines([{ type: 'pioneer/trail-blazed', player: 1, x: 2, y: 3 } as unknown as GameEvent]);
    expect(lines).toEqual(['Player 2: Trail blazed']);
  });
});

/** A store in memory. */
function memoryStore(): Store {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

describe('Undo is enabled only when it can take the move back', () => {
  test.each([
    { game: 'classic' as const, expansions: ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'], players: 3 },
    { game: 'castle' as const, expansions: [], players: 2 },
  ])('local hot-seat, $game with [$expansions]: canUndo is what the engine allows under the policy before-draw', ({ game, expansions, players }) => {
    const rules = pg.rulesFor(game, expansions);
    if (!rules.ok) throw new Error(rules.message);
    const seats = Array.from({ length: players }, () => 'human');
    const config = { game, expansions, players, seats, seed: `undo/${game}` };
    const made = pg.newLocalSession(config, { store: memoryStore(), bots: {}, botDelay: 0 });
    if (!made.ok) throw new Error(made.message);
    const s = made.value;
    const created = pg.newGame(rules.value, { players, seed: config.seed });
    if (!created.ok) throw new Error(created.error.message);
    // The same game kept here, to ask the engine.
    let state = created.value;
    const random = generator(players);
    let [allowed, refused, undone] = [0, 0, 0];
    while (state.step.kind !== 'game-over') {
      const engine = state.moves.length > 0 && pg.undo(rules.value, state, 1, { policy: 'before-draw', events: true }).ok;
      expect(s.canUndo, `after ${state.moves.length} moves`).toBe(engine);
      if (engine) allowed++;
      else refused++;
      if (s.canUndo && random() < 0.3) {
        s.undo();
        expect(s.error).toBe('');
        const back = pg.undo(rules.value, state, 1, { policy: 'before-draw', events: true });
        if (!back.ok) throw new Error(back.error.message);
        state = back.value.state;
        undone++;
      } else {
        const move = s.legal[random() < 0.6 ? 0 : Math.floor(random() * s.legal.length)]!;
        s.submit(move);
        expect(s.error).toBe('');
        const next = pg.applyMove(rules.value, state, move);
        if (!next.ok) throw new Error(next.error.message);
        state = next.value.state;
      }
      expect(s.view?.seq).toBe(state.moves.length);
    }
    expect(s.canUndo).toBe(false);
    expect(allowed).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
    expect(undone).toBeGreaterThan(0);
    s.close();
  });

  test("local play against a bot: the human's move that ended the turn cannot be taken back while the bot thinks", async () => {
    const rules = pg.rulesFor('classic', []);
    if (!rules.ok) throw new Error(rules.message);
    const asked: unknown[] = [];
    // A bot that never answers: the page stays at the bot's decision.
    const bots = { move: (request: unknown) => (asked.push(request), { id: 1, reply: new Promise(() => undefined) }), stop: () => undefined };
    const made = pg.newLocalSession({ game: 'classic', expansions: [], players: 2, seats: ['human', { bot: 1 }], seed: 'undo/bot' }, { store: memoryStore(), bots, botDelay: 0 });
    if (!made.ok) throw new Error(made.message);
    const s = made.value;
    expect(s.canUndo).toBe(false);
    s.submit(s.legal[0]!);
    // The placement: taken back before the follower decision.
    expect(s.state).toBe('human');
    expect(s.canUndo).toBe(true);
    s.submit(s.legal.find((m) => m.type === 'pass')!);
    expect(s.state).toBe('bot');
    expect(asked.length).toBe(1);
    expect(s.canUndo).toBe(false);
    s.close();
  });
});

/**
 * The reference server's protocol (examples/server/README.md), played by the engine in this
 * test: join (joined, then a whole view or a delta from the version given), moves and undos
 * checked as the server checks them (the seat's own move, the version; an undo of the seat's own
 * last move only, `server/undo-not-yours`, under the policy before-draw), every member sent the
 * delta with the move's events, the decider its legal moves.
 */
class FakeServer {
  version = 0;
  state: GameState;
  readonly members: { socket: FakeSocket; seat: number | null; last: PublicView }[] = [];
  constructor(readonly rules: Ruleset, players: number, seed: string) {
    const created = pg.newGame(rules, { players, seed });
    if (!created.ok) throw new Error(created.error.message);
    this.state = created.value;
  }
  view(seat: number | null): PublicView {
    const v = pg.publicView(this.rules, this.state, seat);
    if (!v.ok) throw new Error(v.error.message);
    return v.value;
  }
  legalFor(seat: number | null): Move[] | undefined {
    return this.state.step.kind !== 'game-over' && seat === this.state.step.player ? pg.legalMoves(this.rules, this.state) : undefined;
  }
  /** Whether the server would take back `seat`'s last move now. */
  wouldUndo(seat: number): boolean {
    const last = this.state.moves.at(-1);
    return last !== undefined && last.player === seat && pg.undo(this.rules, this.state, 1, { policy: 'before-draw', events: true }).ok;
  }
  receive(socket: FakeSocket, m: Record<string, unknown>): void {
    const send = (x: unknown): void => socket.deliver(x);
    const member = this.members.find((x) => x.socket === socket);
    switch (m['type']) {
      case 'join': {
        const seat = m['token'] === 't0' ? 0 : m['token'] === 't1' ? 1 : null;
        const now = this.view(seat);
        send({ type: 'joined', game: 'g', seat, seats: this.state.scores.map(() => ({ kind: 'human' })), version: this.version });
        const old = this.members.find((x) => x.seat === seat && x.socket.closed);
        if (old !== undefined && typeof m['version'] === 'number') {
          const delta = pg.viewDelta(old.last, now);
          if (!delta.ok) throw new Error(delta.error.message);
          send({ type: 'update', game: 'g', version: this.version, delta: delta.value, legal: this.legalFor(seat) });
        } else send({ type: 'view', game: 'g', version: this.version, view: now, legal: this.legalFor(seat) });
        this.members.splice(0, this.members.length, ...this.members.filter((x) => x.seat !== seat), { socket, seat, last: now });
        return;
      }
      case 'move':
      case 'undo': {
        if (member === undefined || member.seat === null) return send({ type: 'refused', code: 'server/not-joined', message: 'join first' });
        if (m['version'] !== this.version) return send({ type: 'refused', code: 'server/stale-version', message: 'stale', version: this.version });
        let done: Result<Transition, MeepleError>;
        if (m['type'] === 'undo') {
          const last = this.state.moves.at(-1);
          if (last === undefined || last.player !== member.seat) return send({ type: 'refused', code: 'server/undo-not-yours', message: 'not your move' });
          done = pg.undo(this.rules, this.state, 1, { policy: 'before-draw', events: true });
        } else {
          const move = m['move'] as Move;
          if (move.player !== member.seat) return send({ type: 'refused', code: 'server/not-your-seat', message: 'forged' });
          done = pg.applyMove(this.rules, this.state, move);
        }
        if (!done.ok) return send({ type: 'refused', code: done.error.code, message: done.error.message });
        this.state = done.value.state;
        this.version++;
        for (const x of this.members) {
          if (x.socket.closed) continue;
          const now = this.view(x.seat);
          const delta = pg.viewDelta(x.last, now, { events: done.value.events });
          if (!delta.ok) throw new Error(delta.error.message);
          x.last = now;
          x.socket.deliver({ type: 'update', game: 'g', version: this.version, delta: delta.value, legal: this.legalFor(x.seat), ...(x === member ? { id: m['id'] } : {}) });
        }
        return;
      }
      default:
        return;
    }
  }
}

/** The page's WebSocket, connected to a FakeServer (set as the global WebSocket while the tests run). */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static server: FakeServer | null = null;
  static opened: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  closed = false;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
    // Opens on the next turn of the event loop, as a browser's does, and says hello.
    setTimeout(() => {
      if (this.closed) return;
      this.readyState = FakeSocket.OPEN;
      this.deliver({ type: 'hello', protocol: 1 });
    }, 0);
  }
  send(text: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('not open');
    FakeSocket.server!.receive(this, JSON.parse(text) as Record<string, unknown>);
  }
  deliver(message: unknown): void {
    if (!this.closed) this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The connection drops (a network error, then the close). */
  drop(): void {
    this.closed = true;
    this.readyState = FakeSocket.CLOSED;
    this.onerror?.();
    this.onclose?.();
  }
  close(): void {
    this.closed = true;
    this.readyState = FakeSocket.CLOSED;
  }
}

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('online session (against the protocol of examples/server, played by the engine here)', () => {
  const saved = (globalThis as { WebSocket?: unknown }).WebSocket;
  beforeAll(() => {
    (globalThis as { WebSocket?: unknown }).WebSocket = FakeSocket;
  });
  afterAll(() => {
    (globalThis as { WebSocket?: unknown }).WebSocket = saved;
  });

  /** Two seats' sessions on one fake server, joined and shown the game. */
  async function twoSeats(game: 'classic' | 'castle', expansions: string[], seed: string): Promise<{ server: FakeServer; pages: PageSession[] }> {
    const rules = pg.rulesFor(game, expansions);
    if (!rules.ok) throw new Error(rules.message);
    const server = new FakeServer(rules.value, 2, seed);
    FakeSocket.server = server;
    FakeSocket.opened = [];
    const pages = [0, 1].map((seat) => pg.onlineSession({ server: 'ws://fake', join: { game: 'g', token: `t${seat}` }, linkFor: (g, t) => `?game=${g}&seat=${t}` }));
    await tick(5);
    for (const p of pages) expect(p.view).not.toBeNull();
    return { server, pages };
  }

  test.each([
    { game: 'classic' as const, expansions: ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'] },
    { game: 'castle' as const, expansions: [] },
  ])('$game with [$expansions]: Undo is enabled for a seat exactly when the server would take its last move back', async ({ game, expansions }) => {
    const { server, pages } = await twoSeats(game, expansions, `online-undo/${game}`);
    const random = generator(7);
    let [allowed, undone, moves] = [0, 0, 0];
    while (server.state.step.kind !== 'game-over') {
      for (const [seat, page] of pages.entries()) {
        expect(page.error, `seat ${seat}`).toBe('');
        expect(page.canUndo, `seat ${seat} after ${server.state.moves.length} moves (step ${server.state.step.kind})`).toBe(server.wouldUndo(seat));
        if (page.canUndo) allowed++;
      }
      const undoer = pages.findIndex((p) => p.canUndo);
      if (undoer >= 0 && random() < 0.3) {
        pages[undoer]!.undo();
        undone++;
      } else {
        const decider = pages.find((p) => p.state === 'human')!;
        expect(decider, 'a seat decides').toBeDefined();
        decider.submit(decider.legal[random() < 0.6 ? 0 : Math.floor(random() * decider.legal.length)]!);
        moves++;
      }
      for (const p of pages) expect(p.error).toBe('');
    }
    for (const p of pages) expect(p.canUndo).toBe(false);
    expect(allowed).toBeGreaterThan(3);
    expect(undone).toBeGreaterThan(0);
    expect(moves).toBeGreaterThan(30);
    for (const p of pages) p.close();
  });

  test('"No connection" goes once the session has rejoined, before any move of its own', async () => {
    const { server, pages } = await twoSeats('classic', [], 'online-reconnect');
    const [me, other] = pages as [PageSession, PageSession];
    // Seat 0 places its tile; then its connection drops.
    me.submit(me.legal[0]!);
    const mySocket = FakeSocket.opened[0]!;
    mySocket.drop();
    expect(me.error).toMatch(/No connection/);
    // Seat 0's follower decision is still to come: the page reconnects by itself (after 500 ms).
    await tick(700);
    expect(FakeSocket.opened.length).toBe(3);
    await tick(5);
    expect(me.view?.seq).toBe(server.state.moves.length);
    expect(me.error).toBe('');
    expect(other.error).toBe('');
    for (const p of pages) p.close();
  });
});
