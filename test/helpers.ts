/**
 * Test helpers. `Scenario` builds hand-worked positions through the real rule code: before each
 * placement it rigs the draw (puts the drawn tile back into the bag and takes the wanted one),
 * then plays the move with `applyMove`. Rigged states are for rule tests only: they no longer
 * replay from their seed, so `parseState` rightly refuses them.
 */
import { expect } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  legalMoves,
  newGame,
  whyIllegal,
  type Expansion,
  type GameEvent,
  type GameState,
  type MeepleError,
  type Move,
  type Result,
  type Rotation,
  type Ruleset,
} from '../src/index.js';
import { cloneState } from '../src/core/engine/clone.js';

export function classicRules(): Ruleset {
  const r = createRuleset({ game: 'classic' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A state whose pending draw is replaced by tile `id` (the drawn tile goes back into the bag). */
export function rigDraw(rules: Ruleset, state: GameState, id: string): GameState {
  if (state.step.kind !== 'place-tile') throw new Error(`rigDraw: step is ${state.step.kind}`);
  const s = cloneState(state);
  const step = s.step as { kind: 'place-tile'; player: number; tile: string };
  const back = rules.tileIndex[step.tile]!;
  const want = rules.tileIndex[id];
  if (want === undefined) throw new Error(`rigDraw: unknown tile ${id}`);
  s.bag[back]!++;
  if (s.bag[want]! <= 0) throw new Error(`rigDraw: no ${id} left in the bag`);
  s.bag[want]!--;
  s.step = { kind: 'place-tile', player: step.player, tile: id };
  return s;
}

export class Scenario {
  state: GameState;
  events: GameEvent[] = [];
  constructor(
    readonly rules: Ruleset,
    players = 2,
    seed = 'scenario',
  ) {
    const g = newGame(rules, { players, seed });
    if (!g.ok) throw new Error(g.error.message);
    this.state = g.value;
  }

  /** The player who must decide now. */
  get player(): number {
    const step = this.state.step;
    if (step.kind === 'game-over') throw new Error('game over');
    return step.player;
  }

  play(move: Move): this {
    const r = applyMove(this.rules, this.state, move);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    this.state = r.value.state;
    this.events.push(...r.value.events);
    return this;
  }

  /** Places tile `id` (rigged draw) at x,y turned `rotation` quarter turns; then deploys on `feature` or passes. */
  place(id: string, x: number, y: number, rotation: Rotation, feature?: string): this {
    this.state = rigDraw(this.rules, this.state, id);
    const player = this.player;
    this.play({ type: 'place', player, x, y, rotation });
    if (this.state.step.kind === 'deploy') {
      this.play(feature === undefined ? { type: 'pass', player } : { type: 'deploy', player, feature });
    } else if (feature !== undefined) {
      throw new Error(`cannot deploy on ${feature}: no deploy step after placing ${id}`);
    }
    return this;
  }

  /** Events of type `scored`, as [player, points, kind] triples. */
  scored(): [number, number, string][] {
    return this.events.flatMap((e) => (e.type === 'scored' ? [[e.player, e.points, e.feature?.kind ?? e.reason] as [number, number, string]] : []));
  }

  expectScores(scores: number[]): this {
    expect(this.state.scores).toEqual(scores);
    return this;
  }
}

/** One turn: tile id, x, y, rotation, and the local feature to deploy on (omitted: pass). */
export type Turn = readonly [tile: string, x: number, y: number, rotation: Rotation, feature?: string];

/** A `scored` event reduced to [player, points, feature kind (the reason when no feature), reason]. */
export type Scored = readonly [player: number, points: number, kind: string, reason: string];

/** Plays `turns` in order with `Scenario.place` (rigged draws). */
export function play(sc: Scenario, turns: readonly Turn[]): Scenario {
  for (const [id, x, y, rotation, feature] of turns) sc.place(id, x, y, rotation, feature);
  return sc;
}

/**
 * Plays `turn` as the last tile of the game: the draw is rigged as usual, then the bag is
 * emptied, so the turn ends with the final scoring (the game ends after the last tile is placed
 * and its completed features are scored). `toEnd`: expect the game over at once (false where the
 * end of the game asks the players first: The Castle's final tokens).
 */
export function playLast(sc: Scenario, [id, x, y, rotation, feature]: Turn, toEnd = true): Scenario {
  const s = rigDraw(sc.rules, sc.state, id);
  s.bag.fill(0);
  s.bagSize = 0;
  sc.state = s;
  const player = sc.player;
  sc.play({ type: 'place', player, x, y, rotation });
  if (sc.state.step.kind === 'deploy') {
    sc.play(feature === undefined ? { type: 'pass', player } : { type: 'deploy', player, feature });
  } else if (feature !== undefined) {
    throw new Error(`no deploy step after placing ${id}`);
  }
  if (toEnd) expect(sc.state.step.kind).toBe('game-over');
  return sc;
}

/** The `scored` events among `events`, as `Scored` tuples. */
export function scoredOf(events: readonly GameEvent[]): Scored[] {
  return events.flatMap((e): Scored[] => (e.type === 'scored' ? [[e.player, e.points, e.feature?.kind ?? e.reason, e.reason]] : []));
}

/** Scored tuples in a canonical order (player, points, kind, reason): the rules say who scores what, not in which order. */
export function sortedScored(list: readonly Scored[]): Scored[] {
  return [...list].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2].localeCompare(b[2]) || a[3].localeCompare(b[3]));
}

/**
 * A text key such that `canon(a) === canon(b)` exactly when two JSON-like values are deeply equal
 * (for values without NaN): keys sorted, every primitive tagged with its type, -0 written as 0.
 */
export function canon(v: unknown): string {
  if (typeof v !== 'object' || v === null) return `${typeof v}:${Object.is(v, -0) ? '0' : String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  const r = v as Record<string, unknown>;
  return `{${Object.keys(r)
    .sort()
    .map((k) => `${JSON.stringify(k)}=${canon(r[k])}`)
    .join(',')}}`;
}

/** A placement row: the tiles laid before, the drawn tile and the placements tried. */
export interface PlacementRow {
  readonly name: string;
  /** Tiles laid before. */
  readonly turns: readonly Turn[];
  /** The drawn tile. */
  readonly tile: string;
  /** Placements tried: x, y, rotation and the expected refusal code (null: legal). */
  readonly tries: readonly (readonly [x: number, y: number, rotation: Rotation, code: string | null])[];
}

/**
 * Checks each tried placement of `row` at `state` (the row's tile drawn): `whyIllegal`, `applyMove`
 * and `legalMoves` agree on the expected refusal code (null: legal).
 */
export function checkPlacements(rules: Ruleset, state: GameState, row: PlacementRow): void {
  const player = state.step.kind === 'place-tile' ? state.step.player : -1;
  const legal = legalMoves(rules, state);
  for (const [x, y, rotation, code] of row.tries) {
    const move: Move = { type: 'place', player, x, y, rotation };
    expect(whyIllegal(rules, state, move)?.code ?? null, `${row.tile}@${rotation} at ${x},${y}`).toBe(code);
    const applied = applyMove(rules, state, move);
    expect(applied.ok ? null : applied.error.code).toBe(code);
    expect(legal.some((m) => m.type === 'place' && m.x === x && m.y === y && m.rotation === rotation)).toBe(code === null);
  }
}

/** The value of an ok Result; throws with the error's message otherwise (for set-up in tests). */
export function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string; code?: string } }): T {
  if (!r.ok) throw new Error(r.error.code === undefined ? r.error.message : `${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A ruleset id without the digest of its modules (`classic+tower#1a2b3c4d` -> `classic+tower`). */
export function readableId(id: string): string {
  return id.replace(/#[0-9a-f]{8}$/, '');
}

/** The error of a Result, with its input left as it was (compared as text before and after). */
export function refusal<T>(input: unknown, run: () => Result<T, MeepleError>): MeepleError {
  const before = canon(input);
  const r = run();
  expect(canon(input)).toBe(before);
  if (r.ok) throw new Error('expected an error, got ok');
  return r.error;
}

/** A test module under which tile kind 'B' (a cloister with a road) fits nowhere: drawn, it is discarded. */
export function nowhere(): Expansion {
  return {
    id: 'nowhere',
    order: 90,
    options: {},
    placementTiles: (tile) => tile.id === 'B',
    placementError: () => ({ code: 'nowhere/never', message: 'B never fits' }),
  };
}

/**
 * The file without the summary's two timing fields (`seconds`, `gamesPerSecond`): the only bytes
 * that differ between two runs of the same parameters.
 */
export function untimed(text: string): string {
  return text.replace(/,"seconds":[\d.]+,"gamesPerSecond":(?:null|[\d.]+)\}/g, '}');
}

/**
 * Every state of a seeded game of uniformly random legal moves through `applyMove` (to the end, or
 * `limit` moves), with the events that led to each.
 */
export function playGame(rules: Ruleset, players: number, seed: string, limit = Infinity): { states: GameState[]; events: (readonly GameEvent[])[] } {
  let state = must(newGame(rules, { players, seed }));
  const random = createRandomSource(`moves-${seed}`);
  const states = [state];
  const events: (readonly GameEvent[])[] = [[]];
  while (state.step.kind !== 'game-over' && states.length <= limit) {
    const moves = legalMoves(rules, state);
    const t = must(applyMove(rules, state, moves[random(moves.length)]!));
    state = t.state;
    states.push(state);
    events.push(t.events);
  }
  return { states, events };
}

/** The path of every value in a JSON tree (the root's is `[]`; array indices as numbers), in document order: where a fuzz test may change one value. */
export function jsonPaths(value: unknown): (string | number)[][] {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    paths.push(path);
    if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k]);
  };
  walk(value, []);
  return paths;
}
