/**
 * Compact observations kept up to date row by row (issue 29): a vector environment writes one
 * compact row per environment at every step, and between two steps of one game most of the row
 * is unchanged (the tiles laid before, their features' kinds and pennants). A {@link CompactRowCache}
 * remembers what its row holds, so that the next write changes only what moved: the tiles laid
 * since, the sides whose feature's open ports changed (a union or a completion), the `last placed`
 * mark, the placeable channels and the followers (rewritten whole: they are few, and relative to
 * an observer who alternates). A new game, a different state, or the window moving (its centre
 * follows the placed tiles) writes the row again from an empty one. The result is byte for byte
 * {@link writeCompactObservation}'s (test/vector-observation-cache.test.ts checks it at every step).
 */
import { findRoot } from '../core/features.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { actionLayout } from './layout.js';
import { addSide, changedSides, grown, newSideList, type SideList } from './side-list.js';
import { layoutOf, windowAround, writeVector, type CompactObservationBuffers, type ObservationLayout, type PlaneWrite } from './observation.js';

/**
 * What one compact row holds, so that the next write of the same game changes only what moved.
 * Made by {@link createCompactRowCache}, one per row; written only by
 * {@link writeCompactObservationCached}. About 16 bytes per tile side and 4 per placement and
 * follower written, grown as needed (a classic game: under 4 KB). @internal
 */
export interface CompactRowCache {
  /** The state the row was written from last (the simulator's, changed in place), or null: write it whole. */
  state: Immutable<GameState> | null;
  /** The layout the row was written with. */
  layout: ObservationLayout | null;
  /** Tiles of `state.tiles` already in the row (or outside the window). */
  tiles: number;
  /** The placed tiles' bounding box (of the first `tiles`). */
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  /** The window's north-west cell and whether a tile lies outside it. */
  readonly window: PlaneWrite;
  /** The bit of the `last placed` mark, -1 for none. */
  lastBit: number;
  /** Per tile side whose feature can complete: the side's count byte (open ports) as its entry, its complete bit as its extra. */
  readonly sides: SideList;
  /** The bits of the placeable channels set last. */
  placeBits: Int32Array;
  places: number;
  /** The count bytes of the followers' channels written last. */
  followerBytes: Int32Array;
  followers: number;
}

/** A cache for one row: the first write through it writes the row whole. @internal */
export function createCompactRowCache(): CompactRowCache {
  return {
    state: null,
    layout: null,
    tiles: 0,
    minX: 0,
    maxX: 0,
    minY: 0,
    maxY: 0,
    window: { x0: 0, y0: 0, clipped: 0 },
    lastBit: -1,
    sides: newSideList(),
    placeBits: new Int32Array(64),
    places: 0,
    followerBytes: new Int32Array(16),
    followers: 0,
  };
}

/** Empties the row and the cache: the next pass writes every tile. */
function clearRow(cache: CompactRowCache, L: ObservationLayout, out: CompactObservationBuffers, row: number): void {
  const c = L.compact;
  out.bits.fill(0, row * c.bitBytes, (row + 1) * c.bitBytes);
  out.counts.fill(0, row * c.countBytes, (row + 1) * c.countBytes);
  cache.tiles = 0;
  cache.window.clipped = 0;
  cache.lastBit = -1;
  cache.sides.count = 0;
  cache.places = 0;
  cache.followers = 0;
}

/**
 * Writes `player`'s compact observation of `state` into row `row` of `out`, as
 * {@link writeCompactObservation} does with the legal actions given, changing only what differs
 * from what `cache` says the row holds: the same bytes, for much less work once a game is under
 * way. `cache` belongs to that row alone, and nothing else may write the row between two calls
 * (a row written otherwise needs a new cache). `legal` is the state's legal actions (split form),
 * as `legalActions` lists them. @internal
 *
 * @throws RangeError when a buffer is too short for the row.
 */
export function writeCompactObservationCached(
  rules: Ruleset,
  state: Immutable<GameState>,
  player: number,
  out: CompactObservationBuffers,
  row: number,
  legal: ArrayLike<number>,
  cache: CompactRowCache,
): void {
  const L = layoutOf(rules, state);
  const c = L.compact;
  const bitsAt = row * c.bitBytes;
  const countsAt = row * c.countBytes;
  if (out.bits.length < bitsAt + c.bitBytes || out.counts.length < countsAt + c.countBytes || out.vector.length < (row + 1) * L.V) {
    throw new RangeError(`writeCompactObservationCached: row ${row} needs ${c.bitBytes} bit bytes, ${c.countBytes} count bytes and ${L.V} vector entries per row`);
  }
  const { bits, counts } = out;
  const tiles = state.tiles;
  const n = tiles.length;
  // Another game, or a state that lost tiles: the row is written from an empty one.
  if (cache.state !== state || cache.layout !== L || n < cache.tiles) {
    clearRow(cache, L, out, row);
    cache.state = state;
    cache.layout = L;
  }
  const { P, K, H, W, never, pennants, bitAt, countAt, cSide, cHas, cComplete, cOpen, cFollowers, cPlace } = L;
  // The window: the bounding box grown by the tiles laid since.
  const w = cache.window;
  let from = cache.tiles;
  if (L.fixed !== null) {
    w.x0 = L.fixed.x;
    w.y0 = L.fixed.y;
  } else {
    let { minX, maxX, minY, maxY } = cache;
    if (from === 0) {
      minX = minY = Infinity;
      maxX = maxY = -Infinity;
    }
    for (let t = from; t < n; t++) {
      const p = tiles[t]!;
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
    cache.minX = minX;
    cache.maxX = maxX;
    cache.minY = minY;
    cache.maxY = maxY;
    const oldX0 = w.x0;
    const oldY0 = w.y0;
    windowAround(minX, maxX, minY, maxY, w);
    if (from > 0 && (oldX0 !== w.x0 || oldY0 !== w.y0)) {
      // The window moved: every cell moved with it.
      clearRow(cache, L, out, row);
      from = 0;
    }
  }
  const x0 = w.x0;
  const y0 = w.y0;
  const g = state.features;
  const parent = g.parent;
  const openOf = g.open;

  // The sides written before whose feature's open ports changed (joined another, or completed).
  const sides = cache.sides;
  const changed = changedSides(sides, parent, openOf);
  for (let c = 0; c < changed; c++) {
    const j = sides.changed[c]!;
    const open = sides.open[j]!;
    counts[countsAt + sides.entry[j]!] = open > 255 ? 255 : open;
    const bit = sides.extra[j]!;
    if (open === 0) bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
    else bits[bitsAt + (bit >> 3)]! &= ~(1 << (bit & 7));
  }

  // The `last placed` mark moves to the newest tile.
  if (cache.lastBit >= 0) {
    const bit = cache.lastBit;
    bits[bitsAt + (bit >> 3)]! &= ~(1 << (bit & 7));
    cache.lastBit = -1;
  }

  // The tiles laid since: everything a tile shows.
  let clipped = from === 0 ? 0 : w.clipped;
  for (let t = from; t < n; t++) {
    const placed = tiles[t]!;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx < 0 || dy < 0 || dx >= W || dy >= H) {
      clipped = 1;
      continue;
    }
    const cell = dy * W + dx;
    const tile = rules.tiles[placed.kind]!;
    let bit = bitAt[0]! + cell;
    bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
    const kinds = tile.kinds;
    for (let f = 0; f < kinds.length; f++) {
      bit = bitAt[cHas + kinds[f]!]! + cell;
      bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
    }
    const pen = pennants[placed.kind]!;
    counts[countsAt + countAt[2]! + cell] = pen > 255 ? 255 : pen;
    const ports = tile.portFeature;
    const r12 = placed.rotation * 12;
    for (let side = 0; side < 4; side++) {
      const local = ports[r12 + side * 3 + 1]!;
      if (local < 0) continue;
      const kind = kinds[local]!;
      bit = bitAt[cSide + side * K + kind]! + cell;
      bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
      // A kind that never completes has 0 open ports written: what an empty row holds.
      if (never[kind] === 1) continue;
      const root = findRoot(parent, placed.node + local);
      const open = openOf[root]!;
      const completeBit = bitAt[cComplete + side]! + cell;
      if (open === 0) bits[bitsAt + (completeBit >> 3)]! |= 1 << (completeBit & 7);
      const countByte = countAt[cOpen + side]! + cell;
      counts[countsAt + countByte] = open > 255 ? 255 : open;
      addSide(sides, countByte, completeBit, root, open);
    }
  }
  cache.tiles = n;
  w.clipped = clipped;
  if (n > 0) {
    const placed = tiles[n - 1]!;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx >= 0 && dy >= 0 && dx < W && dy < H) {
      const bit = bitAt[1]! + dy * W + dx;
      bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
      cache.lastBit = bit;
    }
  }

  // The placeable channels: the old marks cleared, the legal placements marked.
  const placeBits = cache.placeBits;
  for (let j = 0; j < cache.places; j++) {
    const bit = placeBits[j]!;
    bits[bitsAt + (bit >> 3)]! &= ~(1 << (bit & 7));
  }
  cache.places = 0;
  if (state.step.kind === 'place-tile') {
    // Placement ids: 4 * (row * width + column) + rotation of the action window.
    const a = actionLayout(rules);
    const aw = a.window;
    for (let i = 0; i < legal.length; i++) {
      const id = legal[i]!;
      if (id >= a.placements) break;
      const cl = id >> 2;
      const r = (cl / aw.width) | 0;
      const dx = cl - r * aw.width + aw.x - x0;
      const dy = r + aw.y - y0;
      if (dx < 0 || dy < 0 || dx >= W || dy >= H) continue;
      const bit = bitAt[cPlace + (id & 3)]! + dy * W + dx;
      bits[bitsAt + (bit >> 3)]! |= 1 << (bit & 7);
      const j = cache.places++;
      if (j >= cache.placeBits.length) cache.placeBits = grown(cache.placeBits, j + 1, j);
      cache.placeBits[j] = bit;
    }
  }

  // The followers, relative to the observer: the old counts cleared, every follower added.
  const followerBytes = cache.followerBytes;
  for (let j = 0; j < cache.followers; j++) counts[countsAt + followerBytes[j]!] = 0;
  cache.followers = 0;
  const fs = state.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    const placed = tiles[f.tile]!;
    const dx = placed.x - x0;
    const dy = placed.y - y0;
    if (dx < 0 || dy < 0 || dx >= W || dy >= H) continue;
    const at = countAt[cFollowers + ((f.player - player + P) % P)]! + dy * W + dx;
    const total = counts[countsAt + at]! + 1;
    counts[countsAt + at] = total > 255 ? 255 : total;
    const j = cache.followers++;
    if (j >= cache.followerBytes.length) cache.followerBytes = grown(cache.followerBytes, j + 1, j);
    cache.followerBytes[j] = at;
  }

  writeVector(rules, state, player, L, w, out.vector, row * L.V);
}
