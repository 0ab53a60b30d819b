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
import type { GameState, Move, PublicView, Result, MeepleError, NewGameOptions, Ruleset, Transition } from '../src/index.js';
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
  savedText(config: unknown, state: GameState): string;
  restoreText(text: string): Checked<Saved>;
  restore(store: Store): Checked<Saved> | null;
  clear(store: Store): void;
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
