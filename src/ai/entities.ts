/**
 * Entity observations (version 1), for attention-based agents: one row of numbers per placed
 * tile, padded to the most tiles a game can hold, with a row mask, plus the public vector of the
 * plane observation. Only what every player sees goes in.
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { actionLayout } from './layout.js';
import { layoutOf, observationSpec, windowCorner, writeVector, type ObservationLayout, type PlaneWrite } from './observation.js';
import { addSide, type SideList } from './side-list.js';

/** Version of the entity observation's layout ({@link entitySpec}); bumped on any change. */
export const ENTITY_OBSERVATION_VERSION = 1;

/** Shape and layout of an entity observation. */
export interface EntitySpec {
  /** {@link ENTITY_OBSERVATION_VERSION}. */
  readonly version: number;
  /** Rows: the most tiles a game of the ruleset can hold: every tile of the bag and every start tile (classic 72, The Castle 67). */
  readonly maxRows: number;
  /** What each column of a row holds, in order. */
  readonly columns: readonly string[];
  /** Entries of the vector (the plane observation's vector: `observationSpec(...).features`). */
  readonly vector: number;
  /** What each vector entry holds, in order. */
  readonly features: readonly string[];
}

/** The buffers of a batch of entity observations: row block i of each holds observation i. */
export interface EntityBuffers {
  /** `maxRows` rows of `columns.length` float32 entries per observation; rows past the tiles placed are 0. */
  readonly rows: Float32Array;
  /** 1 for each row that is a placed tile, 0 for padding: `maxRows` bytes per observation. */
  readonly mask: Uint8Array;
  /** The vector of public features: `vector` entries per observation. */
  readonly vector: Float32Array;
}

/** Each ruleset's and player count's columns. */
const SPECS = new WeakMap<Ruleset, (EntitySpec | undefined)[]>();

/**
 * The layout of {@link writeEntityObservation}'s output. A row per placed tile, in the order laid
 * (row 0: the start tile): its cell, `x` and `y`, relative to the plane observation's window
 * (its north-west cell; the same cells as the planes, but never cropped: a tile outside the window
 * has a coordinate below 0 or past its side); its kind (one-hot over tile kinds) and rotation
 * (one-hot); whether it was laid last; its pennants; for each side (N, E, S, W) the kind of the
 * feature at the middle of that side (one-hot over feature kinds), whether that feature is
 * complete and its open ports (as the planes have them); and for each player (the observer
 * first, then in seat order) and each local feature of the tile (`F`, the most features any tile
 * kind has), the followers standing there. The modules' public marks on tiles are not in version
 * 1 (their public state is in the vector, as in the planes).
 */
export function entitySpec(rules: Ruleset, players: number): EntitySpec {
  let byPlayers = SPECS.get(rules);
  if (byPlayers === undefined) SPECS.set(rules, (byPlayers = []));
  const known = byPlayers[players];
  if (known !== undefined) return known;
  const names = rules.kindNames;
  const sides = ['N', 'E', 'S', 'W'];
  const columns: string[] = ['x', 'y'];
  for (const t of rules.tiles) columns.push(`kind ${t.def.id}`);
  for (let r = 0; r < 4; r++) columns.push(`turned ${r}`);
  columns.push('last placed', 'pennants');
  for (const s of sides) for (const k of names) columns.push(`${s} ${k}`);
  for (const s of sides) columns.push(`${s} complete`);
  for (const s of sides) columns.push(`${s} open ports`);
  const F = actionLayout(rules).followerTargets;
  for (let j = 0; j < players; j++) for (let f = 0; f < F; f++) columns.push(`${j === 0 ? 'followers of observer' : `followers of observer+${j}`} on feature ${f}`);
  const { features } = observationSpec(rules, players);
  // Every tile of the bag and every start tile (The Castle lays 7 pieces before its 60 tiles).
  const maxRows = Math.max(rules.tileCount, actionLayout(rules).bagTiles + rules.start.length);
  const spec: EntitySpec = { version: ENTITY_OBSERVATION_VERSION, maxRows, columns, vector: features.length, features };
  byPlayers[players] = spec;
  return spec;
}

const WINDOW: PlaneWrite = { x0: 0, y0: 0, clipped: 0 };

/** Where each group of an entity row's columns starts (see {@link entitySpec}). @internal */
export interface EntityColumns {
  /** Columns of a row. */
  readonly C: number;
  /** Rows of an observation (the spec's `maxRows`). */
  readonly R: number;
  /** Follower targets per tile (`F`). */
  readonly F: number;
  readonly cKind: number;
  readonly cTurn: number;
  readonly cLast: number;
  readonly cSide: number;
  readonly cComplete: number;
  readonly cOpen: number;
  readonly cFollowers: number;
}

/** Each spec's {@link EntityColumns}. */
const COLUMNS = new WeakMap<EntitySpec, EntityColumns>();

/** The column groups of `spec`'s rows. @internal */
export function entityColumns(rules: Ruleset, L: ObservationLayout, spec: EntitySpec): EntityColumns {
  let cols = COLUMNS.get(spec);
  if (cols === undefined) {
    const cKind = 2;
    const cTurn = cKind + L.T;
    const cLast = cTurn + 4;
    const cSide = cLast + 2;
    const cComplete = cSide + 4 * L.K;
    const cOpen = cComplete + 4;
    cols = { C: spec.columns.length, R: spec.maxRows, F: actionLayout(rules).followerTargets, cKind, cTurn, cLast, cSide, cComplete, cOpen, cFollowers: cOpen + 4 };
    COLUMNS.set(spec, cols);
  }
  return cols;
}

/**
 * Writes the row of placed tile `t` into observation `index` of `out` (rows of zeros to begin
 * with), with its cell relative to `window`'s corner, and its mask byte: everything but its
 * `last placed` mark and its followers. Each side whose feature can complete is added to `sides`
 * when given (its open ports' entry, its complete flag's entry). Returns 1 when the tile lies
 * outside the window, else 0. @internal
 */
export function writeTileRow(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView>,
  L: ObservationLayout,
  cols: EntityColumns,
  out: EntityBuffers,
  index: number,
  t: number,
  window: PlaneWrite,
  sides: SideList | null,
): number {
  const { K, H, W } = L;
  const R = cols.R;
  const rows = out.rows;
  const g = state.features;
  const placed = state.tiles[t]!;
  const tile = rules.tiles[placed.kind]!;
  const row = (index * R + t) * cols.C;
  out.mask[index * R + t] = 1;
  const dx = placed.x - window.x0;
  const dy = placed.y - window.y0;
  rows[row] = dx;
  rows[row + 1] = dy;
  rows[row + cols.cKind + placed.kind] = 1;
  rows[row + cols.cTurn + placed.rotation] = 1;
  let pennants = 0;
  for (let f = 0; f < tile.pennants.length; f++) pennants += tile.pennants[f]!;
  rows[row + cols.cLast + 1] = pennants;
  for (let side = 0; side < 4; side++) {
    const local = tile.portFeature[placed.rotation * 12 + side * 3 + 1]!;
    if (local < 0) continue;
    const kind = tile.kinds[local]!;
    rows[row + cols.cSide + side * K + kind] = 1;
    if (rules.kinds[kind]!.completion === 'never') continue;
    const root = findRoot(g.parent, placed.node + local);
    const open = g.open[root]!;
    if (open === 0) rows[row + cols.cComplete + side] = 1;
    rows[row + cols.cOpen + side] = open;
    if (sides !== null) addSide(sides, row + cols.cOpen + side, row + cols.cComplete + side, root, open);
  }
  return dx < 0 || dy < 0 || dx >= W || dy >= H ? 1 : 0;
}

/**
 * Writes `player`'s entity observation of a state (or of a view of it) into observation `index`
 * of a batch's buffers (see {@link entitySpec}), allocating no buffer. Only public information is
 * written: two states that differ only in what `player` cannot see give the same rows, mask and
 * vector (the property tests check it as they check the planes).
 *
 * @throws RangeError when a buffer is too short for the observation.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { entitySpec, writeEntityObservation } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'entities' });
 * if (!game.ok) throw new Error(game.error.message);
 * const spec = entitySpec(rules.value, 2);
 * const out = { rows: new Float32Array(spec.maxRows * spec.columns.length), mask: new Uint8Array(spec.maxRows), vector: new Float32Array(spec.vector) };
 * writeEntityObservation(rules.value, game.value, 0, out);
 * console.log(spec.maxRows, spec.columns.length, out.mask[0], out.mask[1]); // 72 72 1 0
 * ```
 */
export function writeEntityObservation(
  rules: Ruleset,
  state: Immutable<GameState> | Immutable<GameView>,
  player: number,
  out: EntityBuffers,
  index = 0,
): void {
  const L = layoutOf(rules, state);
  const spec = entitySpec(rules, state.players);
  const C = spec.columns.length;
  const R = spec.maxRows;
  const rowsAt = index * R * C;
  if (out.rows.length < rowsAt + R * C || out.mask.length < (index + 1) * R || out.vector.length < (index + 1) * spec.vector) {
    throw new RangeError(`writeEntityObservation: observation ${index} needs ${R * C} row entries, ${R} mask bytes and ${spec.vector} vector entries`);
  }
  const { rows, mask } = out;
  rows.fill(0, rowsAt, rowsAt + R * C);
  mask.fill(0, index * R, (index + 1) * R);
  windowCorner(state, L, WINDOW);
  const cols = entityColumns(rules, L, spec);
  const tiles = state.tiles;
  const n = Math.min(tiles.length, R);
  let clipped = 0;
  for (let t = 0; t < n; t++) clipped |= writeTileRow(rules, state, L, cols, out, index, t, WINDOW, null);
  if (n > 0 && n === tiles.length) rows[rowsAt + (n - 1) * C + cols.cLast] = 1;
  const { P } = L;
  const F = cols.F;
  for (const f of state.followers) {
    if (f.tile >= R || f.local >= F) continue;
    rows[rowsAt + f.tile * C + cols.cFollowers + ((f.player - player + P) % P) * F + f.local]! += 1;
  }
  WINDOW.clipped = clipped;
  writeVector(rules, state, player, L, WINDOW, out.vector, index * spec.vector);
}
