/**
 * Entity observations kept up to date block by block: a vector environment writes one entity
 * observation per environment at every step, and between two steps of one game most of its rows
 * are unchanged (a placed tile's kind, rotation, pennants and side kinds never change). An
 * {@link EntityRowCache} remembers what its block holds, so that the next write changes only what
 * moved: the rows of the tiles laid since; the cells of every row when the window moved (its
 * north-west corner follows the placed tiles); the sides whose feature's open ports changed (a
 * union or a completion); the `last placed` mark; the followers (rewritten: they are few, and
 * relative to an observer who alternates). A new game or a different state writes the block again
 * from an empty one. The result is byte for byte {@link writeEntityObservation}'s
 * (test/vector-observation-cache.test.ts checks it at every step).
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { entitySpec, type EntityBuffers, type EntitySpec } from './entities.js';
import { actionLayout } from './layout.js';
import { layoutOf, windowCorner, writeVector, type PlaneWrite } from './observation.js';

/**
 * What one entity block holds, so that the next write of the same game changes only what moved.
 * Made by {@link createEntityRowCache}, one per block; written only by
 * {@link writeEntityObservationCached}. About 12 bytes per tile side and 4 per follower written,
 * grown as needed (a classic game: under 4 KB). @internal
 */
export interface EntityRowCache {
  /** The state the block was written from last (the simulator's, changed in place), or null: write it whole. */
  state: Immutable<GameState> | null;
  /** The layout the block was written with. */
  spec: EntitySpec | null;
  /** Rows of `state.tiles` already written (at most the spec's `maxRows`). */
  rows: number;
  /** The window's north-west cell the rows' cells are relative to. */
  readonly window: PlaneWrite;
  /** The entry of the `last placed` mark set, -1 for none. */
  last: number;
  /** Per tile side whose feature can complete: the entry of its open ports (its complete flag is 4 entries before), the root seen last and the open ports written. */
  sideEntry: Int32Array;
  sideRoot: Int32Array;
  sideOpen: Int32Array;
  sides: number;
  /** The followers' entries written last. */
  followerEntries: Int32Array;
  followers: number;
}

/** A cache for one block: the first write through it writes the block whole. @internal */
export function createEntityRowCache(): EntityRowCache {
  return {
    state: null,
    spec: null,
    rows: 0,
    window: { x0: 0, y0: 0, clipped: 0 },
    last: -1,
    sideEntry: new Int32Array(64),
    sideRoot: new Int32Array(64),
    sideOpen: new Int32Array(64),
    sides: 0,
    followerEntries: new Int32Array(16),
    followers: 0,
  };
}

/** An Int32Array at least `n` long holding `a`'s first `keep` entries. */
function grown(a: Int32Array, n: number, keep: number): Int32Array {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, 2 * a.length));
  b.set(a.subarray(0, keep));
  return b;
}

/** The scratch window of a write. */
const WINDOW: PlaneWrite = { x0: 0, y0: 0, clipped: 0 };

/**
 * Writes `player`'s entity observation of `state` into block `index` of `out`, as
 * {@link writeEntityObservation} does, changing only what differs from what `cache` says the block
 * holds: the same bytes, for much less work once a game is under way. `cache` belongs to that
 * block alone, and nothing else may write the block between two calls (a block written otherwise
 * needs a new cache). @internal
 *
 * @throws RangeError when a buffer is too short for the observation.
 */
export function writeEntityObservationCached(
  rules: Ruleset,
  state: Immutable<GameState>,
  player: number,
  out: EntityBuffers,
  index: number,
  cache: EntityRowCache,
): void {
  const L = layoutOf(rules, state);
  const spec = entitySpec(rules, state.players);
  const C = spec.columns.length;
  const R = spec.maxRows;
  const rowsAt = index * R * C;
  if (out.rows.length < rowsAt + R * C || out.mask.length < (index + 1) * R || out.vector.length < (index + 1) * spec.vector) {
    throw new RangeError(`writeEntityObservationCached: observation ${index} needs ${R * C} row entries, ${R} mask bytes and ${spec.vector} vector entries`);
  }
  const { rows, mask } = out;
  const tiles = state.tiles;
  const n = Math.min(tiles.length, R);
  const w = cache.window;
  // Another game, or a state that lost tiles: the block is written from an empty one.
  if (cache.state !== state || cache.spec !== spec || tiles.length < cache.rows) {
    rows.fill(0, rowsAt, rowsAt + R * C);
    mask.fill(0, index * R, (index + 1) * R);
    cache.state = state;
    cache.spec = spec;
    cache.rows = 0;
    cache.last = -1;
    cache.sides = 0;
    cache.followers = 0;
    w.clipped = 0;
  }
  const { P, K, T, H, W } = L;
  const F = actionLayout(rules).followerTargets;
  const cKind = 2;
  const cTurn = cKind + T;
  const cLast = cTurn + 4;
  const cSide = cLast + 2;
  const cComplete = cSide + 4 * K;
  const cOpen = cComplete + 4;
  const cFollowers = cOpen + 4;
  windowCorner(state, L, WINDOW);
  const x0 = WINDOW.x0;
  const y0 = WINDOW.y0;
  const from = cache.rows;
  let clipped = from === 0 ? 0 : w.clipped;
  if (from > 0 && (x0 !== w.x0 || y0 !== w.y0)) {
    // The window moved: every row's cell moved with it.
    clipped = 0;
    for (let t = 0; t < from; t++) {
      const placed = tiles[t]!;
      const dx = placed.x - x0;
      const dy = placed.y - y0;
      if (dx < 0 || dy < 0 || dx >= W || dy >= H) clipped = 1;
      rows[rowsAt + t * C] = dx;
      rows[rowsAt + t * C + 1] = dy;
    }
  }
  w.x0 = x0;
  w.y0 = y0;

  // The sides written before whose feature's open ports changed (joined another, or completed).
  // Features join and complete only when a tile is laid: with none since, the sides are as written.
  const g = state.features;
  const parent = g.parent;
  const openOf = g.open;
  const sideEntry = cache.sideEntry;
  const sideRoot = cache.sideRoot;
  const sideOpen = cache.sideOpen;
  const sides = from === tiles.length ? 0 : cache.sides;
  for (let j = 0; j < sides; j++) {
    let r = sideRoot[j]!;
    // Unions only ever re-parent roots: while r is a root, it is still the side's root.
    if (parent[r] !== r) sideRoot[j] = r = findRoot(parent, r);
    const open = openOf[r]!;
    if (open === sideOpen[j]) continue;
    sideOpen[j] = open;
    const at = sideEntry[j]!;
    rows[at] = open;
    rows[at - 4] = open === 0 ? 1 : 0;
  }

  // The `last placed` mark moves to the newest row.
  if (cache.last >= 0) {
    rows[cache.last] = 0;
    cache.last = -1;
  }

  // The tiles laid since: everything a row shows.
  for (let t = from; t < n; t++) {
    const placed = tiles[t]!;
    const tile = rules.tiles[placed.kind]!;
    const row = rowsAt + t * C;
    mask[index * R + t] = 1;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx < 0 || dy < 0 || dx >= W || dy >= H) clipped = 1;
    rows[row] = dx;
    rows[row + 1] = dy;
    rows[row + cKind + placed.kind] = 1;
    rows[row + cTurn + placed.rotation] = 1;
    let pennants = 0;
    for (let f = 0; f < tile.pennants.length; f++) pennants += tile.pennants[f]!;
    rows[row + cLast + 1] = pennants;
    for (let side = 0; side < 4; side++) {
      const local = tile.portFeature[placed.rotation * 12 + side * 3 + 1]!;
      if (local < 0) continue;
      const kind = tile.kinds[local]!;
      rows[row + cSide + side * K + kind] = 1;
      if (rules.kinds[kind]!.completion === 'never') continue;
      const root = findRoot(parent, placed.node + local);
      const open = openOf[root]!;
      if (open === 0) rows[row + cComplete + side] = 1;
      const at = row + cOpen + side;
      rows[at] = open;
      const j = cache.sides++;
      if (j >= cache.sideRoot.length) {
        cache.sideEntry = grown(cache.sideEntry, j + 1, j);
        cache.sideRoot = grown(cache.sideRoot, j + 1, j);
        cache.sideOpen = grown(cache.sideOpen, j + 1, j);
      }
      cache.sideEntry[j] = at;
      cache.sideRoot[j] = root;
      cache.sideOpen[j] = open;
    }
  }
  cache.rows = n;
  // The full writer marks the last tile of the state, and only when its row is written.
  if (tiles.length > 0 && tiles.length <= R) {
    const at = rowsAt + (tiles.length - 1) * C + cLast;
    rows[at] = 1;
    cache.last = at;
  }
  w.clipped = clipped;

  // The followers, relative to the observer: the old entries cleared, every follower added.
  const entries = cache.followerEntries;
  for (let j = 0; j < cache.followers; j++) rows[entries[j]!] = 0;
  cache.followers = 0;
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (f.tile >= R || f.local >= F) continue;
    const at = rowsAt + f.tile * C + cFollowers + ((f.player - player + P) % P) * F + f.local;
    rows[at]! += 1;
    const j = cache.followers++;
    if (j >= cache.followerEntries.length) cache.followerEntries = grown(cache.followerEntries, j + 1, j);
    cache.followerEntries[j] = at;
  }

  WINDOW.clipped = clipped;
  writeVector(rules, state, player, L, WINDOW, out.vector, index * spec.vector);
}
