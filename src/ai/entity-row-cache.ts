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
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { entityColumns, entitySpec, writeTileRow, type EntityBuffers, type EntitySpec } from './entities.js';
import { layoutOf, windowCorner, writeVector, type PlaneWrite } from './observation.js';
import { changedSides, grown, newSideList, type SideList } from './side-list.js';

/**
 * What one entity block holds, so that the next write of the same game changes only what moved.
 * Made by {@link createEntityRowCache}, one per block; written only by
 * {@link writeEntityObservationCached}. About 20 bytes per tile side and 4 per follower written,
 * grown as needed (a classic game: under 6 KB). @internal
 */
export interface EntityRowCache {
  /** The state the block was written from last (the simulator's, changed in place), or null: write it whole. */
  state: Immutable<GameState> | null;
  /** The layout the block was written with. */
  spec: EntitySpec | null;
  /** Rows of `state.tiles` already written (at most the spec's `maxRows`). */
  rows: number;
  /** The window's north-west cell the rows' cells are relative to, and whether a row lies outside it. */
  readonly window: PlaneWrite;
  /** The entry of the `last placed` mark set, -1 for none. */
  last: number;
  /** Per tile side whose feature can complete: its open ports' entry, its complete flag's entry as the extra. */
  readonly sides: SideList;
  /** The followers' entries written last. */
  followerEntries: Int32Array;
  followers: number;
}

/** A cache for one block: the first write through it writes the block whole. @internal */
export function createEntityRowCache(): EntityRowCache {
  return { state: null, spec: null, rows: 0, window: { x0: 0, y0: 0, clipped: 0 }, last: -1, sides: newSideList(), followerEntries: new Int32Array(16), followers: 0 };
}

/** The scratch window of a write. */
const WINDOW: PlaneWrite = { x0: 0, y0: 0, clipped: 0 };

/**
 * Writes `player`'s entity observation of `state` into block `index` of `out`, as
 * {@link writeEntityObservation} does, changing only what differs from what `cache` says the block
 * holds: the same bytes, for less work once a game is under way. `cache` belongs to that block
 * alone, and nothing else may write the block between two calls (a block written otherwise needs
 * a new cache). @internal
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
  const cols = entityColumns(rules, L, spec);
  const { C, R, F, cLast, cFollowers } = cols;
  const rowsAt = index * R * C;
  if (out.rows.length < rowsAt + R * C || out.mask.length < (index + 1) * R || out.vector.length < (index + 1) * spec.vector) {
    throw new RangeError(`writeEntityObservationCached: observation ${index} needs ${R * C} row entries, ${R} mask bytes and ${spec.vector} vector entries`);
  }
  const rows = out.rows;
  const tiles = state.tiles;
  const n = Math.min(tiles.length, R);
  const w = cache.window;
  // Another game, or a state that lost tiles: the block is written from an empty one.
  if (cache.state !== state || cache.spec !== spec || tiles.length < cache.rows) {
    rows.fill(0, rowsAt, rowsAt + R * C);
    out.mask.fill(0, index * R, (index + 1) * R);
    cache.state = state;
    cache.spec = spec;
    cache.rows = 0;
    cache.last = -1;
    cache.sides.count = 0;
    cache.followers = 0;
    w.clipped = 0;
  }
  const { P, H, W } = L;
  windowCorner(state, L, WINDOW);
  const from = cache.rows;
  let clipped = from === 0 ? 0 : w.clipped;
  if (from > 0 && (WINDOW.x0 !== w.x0 || WINDOW.y0 !== w.y0)) {
    // The window moved: every row's cell moved with it.
    clipped = 0;
    for (let t = 0; t < from; t++) {
      const placed = tiles[t]!;
      const dx = placed.x - WINDOW.x0;
      const dy = placed.y - WINDOW.y0;
      if (dx < 0 || dy < 0 || dx >= W || dy >= H) clipped = 1;
      rows[rowsAt + t * C] = dx;
      rows[rowsAt + t * C + 1] = dy;
    }
  }
  w.x0 = WINDOW.x0;
  w.y0 = WINDOW.y0;

  // The sides written before whose feature's open ports changed (joined another, or completed):
  // with no tile laid since the last write, none did.
  const sides = cache.sides;
  const changed = from === tiles.length ? 0 : changedSides(sides, state.features.parent, state.features.open);
  for (let c = 0; c < changed; c++) {
    const j = sides.changed[c]!;
    const open = sides.open[j]!;
    rows[sides.entry[j]!] = open;
    rows[sides.extra[j]!] = open === 0 ? 1 : 0;
  }

  // The `last placed` mark moves to the newest row (the full writer marks the state's last tile
  // only when its row is written).
  if (cache.last >= 0) {
    rows[cache.last] = 0;
    cache.last = -1;
  }
  for (let t = from; t < n; t++) clipped |= writeTileRow(rules, state, L, cols, out, index, t, w, sides);
  cache.rows = n;
  if (n > 0 && n === tiles.length) rows[(cache.last = rowsAt + (n - 1) * C + cLast)] = 1;
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
