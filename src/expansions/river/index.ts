/**
 * The River (River I) and The River II: river tiles laid before the land tiles. The spring
 * replaces the start tile; the other river tiles are drawn first, each continuing the river at
 * an open end; the river may not make a U-turn (two curves in a row turning the same way); the
 * lake comes last. River II's fork comes right after the spring and splits the river in two
 * branches, which may not be joined again; each branch ends in a lake (the lake at a city is
 * shuffled in with the other river tiles, the volcano lake comes last). Followers may go on the
 * river tiles' cities, roads, fields and cloisters, never on the water; the river splits fields
 * like a road. A river tile that fits nowhere is discarded like any tile. Then the normal game
 * goes on. With the Count of Carcassonne, the City is the start and the spring gives way
 * (`startYields`): it is drawn first and laid beside the City as a set-up placement by the
 * starting player (the Count's rules, combinations, 4; docs/expansions/river.md, "Combined with
 * the Count of Carcassonne").
 * Rules: the expansions digest, "River"; the Czech rulebook of The Castle, "Carcassonne Řeka"; tiles:
 * the classic tile reference, "B1. The River (River I)" and "B2. The River II". docs/expansions/river.md
 * maps each rule to its code and test.
 *
 * Options: `set`, `'I'` (default), `'II'` or `'both'` (River I and II together: one spring,
 * River I's lake left out, 22 river tiles).
 *
 * No events of its own: river tiles are drawn, placed and discarded like any tile.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { river } from 'meeplekit/expansions/river';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [river({ set: 'II' })] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'river' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(game.value.tiles[0]?.id, game.value.step); // R2-01 { kind: 'place-tile', player: 0, tile: 'R2-02' }
 * ```
 *
 * @module meeplekit/expansions/river
 */
import { tileAt } from '../../core/board.js';
import { type DrawFilter, type Expansion, type HookContext } from '../../core/expansion.js';
import { sliceOf } from '../../core/module-helpers.js';
import type { Ruleset } from '../../core/ruleset.js';
import { SIDE_DELTA, cellKey, type GameView } from '../../core/state.js';
import { parseTileSpec, type CompiledTile, type FeatureKindDef, type TileDef } from '../../core/tiles.js';
import { SIDES, type Immutable, type Rotation, type Side } from '../../core/types.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';

/** The expansion's id. */
export const RIVER = 'river';

/** Which river set to play: River I, River II, or both together. */
export type RiverSet = 'I' | 'II' | 'both';

/** The values of {@link RiverSet}. */
export const RIVER_SETS: readonly RiverSet[] = ['I', 'II', 'both'];

/** Options of {@link river}. */
export interface RiverOptions {
  /** Which set: `'I'` (default), `'II'`, or `'both'` (one spring, no River I lake: 22 tiles). */
  readonly set?: RiverSet;
}

/**
 * A river tile's place in the draw order: the `spring` starts the river (it is the start tile;
 * with the Count, drawn first and laid beside the City),
 * the `fork` (River II) is drawn right after it, then the `course` tiles in random order (River
 * II's lake at a city, R2-04, among them), and the `lake` (River I's lake R1-02, River II's
 * volcano lake R2-03) only when no other river tile is left.
 */
export type RiverRole = 'spring' | 'fork' | 'course' | 'lake';

/**
 * A row of a river tile table: the reference id (the classic tile reference), copies, the tile in the
 * project's compact spec (see `parseTileSpec`; `w` is the river, on the middle port of an edge),
 * and the tile's role.
 */
export type RiverTileRow = readonly [id: string, count: number, spec: string, role: RiverRole];

/**
 * The river feature kind: code `w`, never complete, no follower on it; its own edge class 4, so
 * river meets only river across an edge (the base game uses 1 city, 2 road, 3 field).
 */
export const RIVER_KIND: FeatureKindDef = { name: 'river', code: 'w', completion: 'never', tracksTiles: false, edgeClass: 4 };

/** The feature kinds river tiles are written in: the classic ones and the river. */
export const RIVER_TILE_KINDS: readonly FeatureKindDef[] = [...CLASSIC_KINDS, RIVER_KIND];

/**
 * River I: 12 tiles (the classic tile reference "B1"), ids R1-01 to R1-10. The spring's and the lake's
 * field goes round the water (one field), as in the reference.
 */
export const RIVER_I_TILES: readonly RiverTileRow[] = [
  ['R1-01', 1, 'w:E2 f:N,E1,E3,S,W', 'spring'],
  ['R1-02', 1, 'w:W2 f:N,E,S,W1,W3', 'lake'],
  ['R1-03', 1, 'c:N c:S w:E2,W2 f:E1,W3>c1 f:E3,W1>c2', 'course'],
  // The road crosses the river on a bridge and ends at the city: four fields.
  ['R1-04', 1, 'c:N r:S2 w:E2,W2 f:E1>c1 f:W3>c1 f:E3,S1 f:S3,W1', 'course'],
  ['R1-05', 1, 'm r:S2 w:E2,W2 f:N,E1,W3 f:E3,S1 f:S3,W1', 'course'],
  ['R1-06', 1, 'r:E2,W2 w:N2,S2 f:N1,W3 f:N3,E1 f:E3,S1 f:S3,W1', 'course'],
  ['R1-07', 2, 'w:E2,W2 f:N,E1,W3 f:E3,S,W1', 'course'],
  ['R1-08', 1, 'c:N,W w:E2,S2 f:E1,S3>c1 f:E3,S1', 'course'],
  ['R1-09', 1, 'r:N2,E2 w:S2,W2 f:N1,E3,S1,W3 f:N3,E1 f:S3,W1', 'course'],
  ['R1-10', 2, 'w:S2,W2 f:N,E,S1,W3 f:S3,W1', 'course'],
];

/**
 * River II: 12 tiles (the classic tile reference "B2"), ids R2-01 to R2-12: spring, fork, two river ends
 * (R2-03 the volcano lake, R2-04 the lake at a city) and 8 course tiles. The inn (R2-07), the pig
 * herd (R2-10) and the volcano (R2-03) belong to other expansions and mean nothing here.
 */
export const RIVER_II_TILES: readonly RiverTileRow[] = [
  ['R2-01', 1, 'w:E2 f:N,E1,E3,S,W', 'spring'],
  // The fork: the river from the west splits to the north and the east.
  ['R2-02', 1, 'w:N2,E2,W2 f:N1,W3 f:N3,E1 f:E3,S,W1', 'fork'],
  // The volcano lake: set aside with the spring and the fork, placed last.
  ['R2-03', 1, 'w:W2 f:N,E,S,W1,W3', 'lake'],
  // The lake at a city also ends a branch, but River II shuffles it in with the course tiles:
  // only the spring, the fork and the volcano lake are set aside (River II rules).
  ['R2-04', 1, 'c:E w:W2 f:N,W3>c1 f:S,W1>c1', 'course'],
  // The city bridge over the river: one field per bank under the arch (the reference's reading).
  ['R2-05', 1, 'c:E,W w:N2,S2 f:N3,S1>c1 f:N1,S3>c1', 'course'],
  ['R2-06', 1, 'm w:E2,W2 f:N,E1,W3 f:E3,S,W1', 'course'],
  ['R2-07', 1, 'r:E2,W2 w:N2,S2 f:N1,W3 f:N3,E1 f:E3,S1 f:S3,W1', 'course'],
  ['R2-08', 1, 'c:N r:S2 w:E2,W2 f:E1>c1 f:W3>c1 f:E3,S1 f:S3,W1', 'course'],
  ['R2-09', 1, 'c+:N,W w:E2,S2 f:E1,S3>c1 f:E3,S1', 'course'],
  ['R2-10', 1, 'w:N2,W2 f:N3,E,S,W1 f:N1,W3', 'course'],
  ['R2-11', 1, 'r:N2,E2 w:S2,W2 f:N1,E3,S1,W3 f:N3,E1 f:S3,W1', 'course'],
  ['R2-12', 1, 'w:S2,W2 f:N,E,S1,W3 f:S3,W1', 'course'],
];

/**
 * The river tiles of a set, in catalogue order. `'both'` keeps River I's spring and drops River
 * II's spring and River I's lake: one river, two branches closed by River II's two ends (the
 * publisher's ruling for combining the sets: one spring and one lake are set aside).
 */
export function riverTiles(set: RiverSet): readonly RiverTileRow[] {
  if (set === 'I') return RIVER_I_TILES;
  if (set === 'II') return RIVER_II_TILES;
  return [...RIVER_I_TILES.filter(([id]) => id !== 'R1-02'), ...RIVER_II_TILES.filter(([id]) => id !== 'R2-01')];
}

/** A turn of the river, seen in the direction of flow. */
export type RiverTurn = 'left' | 'right';

/** An open end of the river: the empty cell the water flows into, and how it got there. */
export interface RiverEnd {
  /** Column of the empty cell the river flows into. */
  x: number;
  /** Row of that cell. */
  y: number;
  /** Direction of flow into the cell (`E`: the water enters the cell by its west side). */
  flow: Side;
  /**
   * How the tile the water leaves turned it (`null`: it went straight on, or it is the spring).
   * The next tile may not turn the same way (no U-turn).
   */
  turn: RiverTurn | null;
}

/** The River state slice (`state.ext.river`): the open ends, one per branch still flowing. */
export interface RiverState {
  // A record of records, not a list: applyMove freezes the arrays it adopts only one level deep
  // (their members are expected to be numbers or records frozen at birth, and slices are copied
  // unfrozen each move), so a list of records would leave the state partly unfrozen.
  /**
   * Open ends by branch id: `'1'` is the spring's branch; a tile keeps its branch's id for its
   * first exit (in N, E, S, W order) and a fork opens a new branch for the other. A lake closes
   * its branch.
   */
  ends: Record<string, RiverEnd>;
  /** Branch ids handed out so far. */
  branches: number;
}

const OPTION_KEYS = ['set'] as const;

/** Why `options` are not valid river options, or null. */
function optionsProblem(options: unknown): string | null {
  if (options === undefined) return null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'options must be an object such as { set: "II" }';
  for (const k of Object.keys(options)) {
    if (!(OPTION_KEYS as readonly string[]).includes(k)) return `unknown option '${k}' (options: ${OPTION_KEYS.join(', ')})`;
  }
  const set = (options as Record<string, unknown>)['set'];
  if (set !== undefined && !(RIVER_SETS as readonly unknown[]).includes(set)) {
    return `set must be one of ${RIVER_SETS.map((s) => `'${s}'`).join(', ')}, got ${typeof set === 'string' ? `'${set}'` : String(set)}`;
  }
  return null;
}

/** The sides (0 N, 1 E, 2 S, 3 W) whose middle port is water, for the tile turned `rotation`. */
function riverSides(tile: CompiledTile, rotation: number): number[] {
  const out: number[] = [];
  for (let side = 0; side < 4; side++) {
    const f = tile.portFeature[rotation * 12 + side * 3 + 1]!;
    if (tile.def.features[f]!.kind === RIVER) out.push(side);
  }
  return out;
}

/** `riverSides` for every rotation, computed once per compiled tile (a cache owned by the caller). */
function riverSidesCached(cache: WeakMap<CompiledTile, number[][]>, tile: CompiledTile, rotation: number): number[] {
  let all = cache.get(tile);
  if (all === undefined) {
    all = [0, 1, 2, 3].map((r) => riverSides(tile, r));
    cache.set(tile, all);
  }
  return all[rotation]!;
}

/** The turn from flowing towards `flow` to leaving by side `exit` (null: straight on). */
function turnOf(flow: number, exit: number): RiverTurn | null {
  const d = (exit - flow + 4) % 4;
  return d === 1 ? 'right' : d === 3 ? 'left' : null;
}

/**
 * The branch id of the open end flowing into cell x,y, as a number, or null (the first one, if two
 * meet there). Branch ids are `'1'` to `String(branches)`: counting up visits them in the order a
 * `for ... in` would (integer keys ascending), without enumerating the record's keys; a record
 * indexed by the number reads and writes the same key as by its text.
 */
function endAt(slice: Immutable<RiverState>, x: number, y: number): number | null {
  for (let b = 1; b <= slice.branches; b++) {
    const e = slice.ends[b];
    if (e !== undefined && e.x === x && e.y === y) return b;
  }
  return null;
}

/** The phases of the river's draw, in order: River II's fork, the course tiles, the lakes. */
const FORKS = 0;
const COURSE = 1;
const LAKES = 2;

/** The River's own moves: none (river tiles are placed with the core's `place` move). */
export type RiverMove = never;

/**
 * The River expansion module. `river()` plays River I; `river({ set: 'II' })` River II;
 * `river({ set: 'both' })` both together. Invalid options make `createRuleset` fail with
 * `options/expansion-options`.
 */
export function river(options?: RiverOptions): Expansion<RiverMove> {
  const problem = optionsProblem(options);
  const set: RiverSet = problem === null ? (options?.set ?? 'I') : 'I';
  const rows = riverTiles(set);
  const roles = new Map<string, RiverRole>(rows.map(([id, , , role]) => [id, role]));
  const ids = (role: RiverRole): string[] => rows.filter((r) => r[3] === role).map(([id]) => id);
  const spring = ids('spring')[0]!;
  const forks = ids('fork');
  const course = ids('course');
  const drawnRiver = [...forks, ...course, ...ids('lake')];

  // Draw order (digest: the river tiles are placed first, the lake last; River II: the fork
  // right after the spring): land tiles only when no river tile is left.
  // Tile indices of each group, per ruleset (the same module object may serve several rulesets,
  // whose catalogues differ): a cache owned by this module object, not module-level state.
  interface Groups {
    /** The spring's tile index: in the bag only when it gave way to another start (the Count's City). */
    spring: number;
    /** Draw mask (1: may be drawn) of the spring alone: it is drawn first when in the bag. */
    onlySpring: Uint8Array;
    /** The tile indices of the river tiles drawn from the bag (all but the spring)... */
    drawnRiver: number[];
    /** ...and the phase of the draw each belongs to (one entry per index above). */
    phaseOf: Uint8Array;
    /** By tile index: 1 for a river tile. */
    isRiver: Uint8Array;
    /** Draw masks by tile index (1: may be drawn) for each phase of the river's draw. */
    onlyForks: Uint8Array;
    onlyCourse: Uint8Array;
    onlyLakes: Uint8Array;
  }
  const groups = new WeakMap<Ruleset, Groups>();
  // The groups of the ruleset asked last: asked at every draw.
  let lastRules: Ruleset | null = null;
  let lastGroups: Groups | null = null;
  function groupsOf(rules: Ruleset): Groups {
    if (rules === lastRules) return lastGroups!;
    let g = groups.get(rules);
    if (g === undefined) {
      const indices = (list: readonly string[]): number[] => list.map((id) => rules.tileIndex[id]!);
      // Each phase's filter is a mask by tile index: the draw reads one array entry per tile kind
      // in the bag, without a call.
      const roleOf = rules.tiles.map((t) => roles.get(t.def.id) ?? null);
      const only = (role: RiverRole): Uint8Array => Uint8Array.from(roleOf, (r) => (r === role ? 1 : 0));
      g = {
        spring: rules.tileIndex[spring]!,
        onlySpring: only('spring'),
        drawnRiver: indices(drawnRiver),
        phaseOf: Uint8Array.from(drawnRiver, (id) => (forks.includes(id) ? FORKS : course.includes(id) ? COURSE : LAKES)),
        isRiver: Uint8Array.from(roleOf, (r) => (r === null ? 0 : 1)),
        onlyForks: only('fork'),
        onlyCourse: only('course'),
        onlyLakes: only('lake'),
      };
      groups.set(rules, g);
    }
    lastRules = rules;
    lastGroups = g;
    return g;
  }

  // Predicates for each phase of the draw, made once per ruleset (held in `groups` with the indices).
  const sidesCache = new WeakMap<CompiledTile, number[][]>();

  function drawFilter(rules: Ruleset, state: Immutable<GameView>): DrawFilter | null {
    const g = groupsOf(rules);
    const bag = state.bag;
    // With the Count, the spring is in the bag: it comes first, to be laid beside the City.
    if (bag[g.spring]! > 0) return g.onlySpring;
    // The river tiles' copies left, per phase, in one pass over the bag's river entries.
    const kinds = g.drawnRiver;
    let forksLeft = 0;
    let courseLeft = 0;
    let lakesLeft = 0;
    for (let i = 0; i < kinds.length; i++) {
      const n = bag[kinds[i]!]!;
      if (n === 0) continue;
      const phase = g.phaseOf[i];
      if (phase === FORKS) forksLeft += n;
      else if (phase === COURSE) courseLeft += n;
      else lakesLeft += n;
    }
    if (forksLeft + courseLeft + lakesLeft === 0) return null; // the river is done: land tiles as usual
    if (forksLeft > 0) return g.onlyForks; // River II: the fork right after the spring
    if (courseLeft > 0) return g.onlyCourse; // then the course tiles
    return g.onlyLakes; // the lake (River II: the volcano lake) last
  }

  function placementError(
    rules: Ruleset,
    state: Immutable<GameView>,
    tile: CompiledTile,
    x: number,
    y: number,
    rotation: Rotation,
  ): string | null {
    const g = groupsOf(rules);
    if (g.isRiver[tile.index] !== 1) return null;
    const sides = riverSidesCached(sidesCache, tile, rotation);
    const key = cellKey(x, y);
    // Edge matching already puts water against water on every shared edge; count those edges.
    let facing = 0;
    for (const s of sides) if (tileAt(state, key + SIDE_DELTA[s]!) >= 0) facing++;
    // The spring laid beside the Count's City (a set-up placement): the river springs there and
    // flows away from it, into an empty cell (Count of Carcassonne rules, combinations, 4).
    if (tile.index === g.spring) return facing === 0 ? null : 'the spring starts the river: its water must flow into an empty cell';
    // Digest: each river tile continues the river.
    if (facing === 0) return 'a river tile must continue the river at one of its open ends';
    // River II rule: the branches of the river may not be joined.
    if (facing > 1) return 'a river tile may not join two open ends of the river';
    const slice = sliceOf<Immutable<RiverState>>(state, RIVER);
    const branch = endAt(slice, x, y);
    const end = branch === null ? null : slice.ends[branch]!;
    if (end === null || end.turn === null) return null;
    // No U-turn (the Czech rulebook of The Castle "žádné zpětné obrátky"; Hans im Glück: only immediate U-turns):
    // a curve may not turn the same way as the curve right before it on this branch.
    const flow = SIDES.indexOf(end.flow);
    const entry = (flow + 2) % 4;
    for (const s of sides) {
      if (s !== entry && turnOf(flow, s) === end.turn) return `no U-turn: the river turned ${end.turn} on the tile before and may not turn ${end.turn} again`;
    }
    return null;
  }

  /**
   * A river tile's only possible cells: the open ends (each river tile continues the river, so
   * it lies where an end flows to; placementError decides which of them and how turned).
   */
  function placementCells(rules: Ruleset, state: Immutable<GameView>, tile: CompiledTile): readonly number[] | null {
    const g = groupsOf(rules);
    // The spring (drawn only beside the Count's City) may lie wherever it fits: the whole frontier.
    if (g.isRiver[tile.index] !== 1 || tile.index === g.spring) return null;
    const slice = sliceOf<Immutable<RiverState>>(state, RIVER);
    const out: number[] = [];
    for (let b = 1; b <= slice.branches; b++) {
      const e = slice.ends[b];
      if (e !== undefined) out.push(cellKey(e.x, e.y));
    }
    return out;
  }

  function afterPlace(ctx: HookContext, index: number): void {
    const placed = ctx.state.tiles[index]!;
    if (groupsOf(ctx.rules).isRiver[placed.kind] !== 1) return;
    const slice = sliceOf<RiverState>(ctx.state, RIVER);
    const tile = ctx.rules.tiles[placed.kind]!;
    // The spring (laid at set-up) continues no end; every other river tile takes the one it meets.
    let branch = endAt(slice, placed.x, placed.y);
    const flow = branch === null ? -1 : SIDES.indexOf(slice.ends[branch]!.flow);
    const entry = flow < 0 ? -1 : (flow + 2) % 4;
    const key = cellKey(placed.x, placed.y);
    for (const s of riverSidesCached(sidesCache, tile, placed.rotation)) {
      if (s === entry || tileAt(ctx.state, key + SIDE_DELTA[s]!) >= 0) continue;
      const id = branch ?? ++slice.branches;
      branch = null; // a further exit (the fork's) opens a new branch
      const dx = s === 1 ? 1 : s === 3 ? -1 : 0;
      const dy = s === 2 ? 1 : s === 0 ? -1 : 0;
      slice.ends[id] = { x: placed.x + dx, y: placed.y + dy, flow: SIDES[s]!, turn: flow < 0 ? null : turnOf(flow, s) };
    }
    // The end this tile took and did not carry on (a lake): its branch is closed. (Carried on, it
    // was overwritten above: `delete` leaves holes in the record that every later look-up pays for.)
    if (branch !== null) delete slice.ends[branch];
  }

  return {
    id: RIVER,
    order: 10,
    options: problem === null ? { set } : { ...(options as Record<string, unknown>) },
    kinds: [RIVER_KIND],
    tiles: rows.map(([id, count, spec]): TileDef => parseTileSpec(id, count, spec, RIVER_TILE_KINDS)),
    start: { tile: spring, rotation: 0 },
    // With the Count of Carcassonne, the City is the start and the spring is laid beside it.
    startYields: true,
    validate: () => problem,
    setup: (): RiverState => ({ ends: {}, branches: 0 }),
    drawFilter,
    // The continuation and U-turn rules concern only river tiles.
    placementTiles: (tile) => roles.has(tile.id),
    placementError,
    placementCells,
    afterPlace,
    // The score bounds of meeplekit/ai: the River awards no points of its own. Its tiles' roads,
    // cities, cloisters and fields are the base game's share (read from rules.tiles, whichever
    // set); the water is never scored.
    scoreBounds: () => ({ min: 0, max: 0 }),
  };
}
