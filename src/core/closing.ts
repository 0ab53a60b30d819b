/**
 * Which features a placement would complete, read off the feature graph without laying the tile:
 * a few unions over the tile's own segments and its neighbours' roots, the same arithmetic of open
 * ports as `layTile`'s. For searches that want to look at completing placements first.
 */
import type { CompiledTile } from './tiles.js';
import { findRoot } from './features.js';
import { OPPOSITE_PORT, tileAt, type BoardRules } from './board.js';
import { SIDE_DELTA, type GameView } from './state.js';
import type { Immutable } from './types.js';

/** Local nodes at most: a tile's segments (at most 12 with ports, plus areas) and 12 neighbour roots. */
const MAX_LOCAL = 64;

/**
 * Scratch of {@link mergeAround} and {@link featuresClosed}, reused across calls (one per
 * search). Local node `i` is the tile's segment `i` for `i` below the tile's segment count, else
 * a neighbour's feature-graph root. @internal
 */
export interface ClosingScratch {
  readonly parent: Int32Array;
  /** Per local node that is a set's representative: the set's open ports after the placement. */
  readonly open: Int32Array;
  /** The feature-graph root each neighbour node stands for. */
  readonly root: Int32Array;
  /**
   * Extra counts per local node, summed when two nodes join (a caller's own: say, followers on a
   * neighbour's feature). The tile's segments start at 0; {@link mergeAround}'s `seed` fills a
   * neighbour's.
   */
  readonly sums: readonly Int32Array[];
  /** Local nodes in use after the last {@link mergeAround}. */
  size: number;
}

/** A scratch for {@link featuresClosed}, with `sums` extra counts a local node. @internal */
export function newClosingScratch(sums = 0): ClosingScratch {
  return {
    parent: new Int32Array(MAX_LOCAL),
    open: new Int32Array(MAX_LOCAL),
    root: new Int32Array(MAX_LOCAL),
    sums: Array.from({ length: sums }, () => new Int32Array(MAX_LOCAL)),
    size: 0,
  };
}

/** The representative of local node `i`'s set. @internal */
export function localFind(parent: Int32Array, i: number): number {
  while (parent[i] !== i) i = parent[i]!;
  return i;
}

/**
 * Joins, in `scratch`, the segments of `tile` placed on the empty cell `key` turned `rotation`
 * with its neighbours' features, as `layTile` would, and counts each set's open ports after the
 * placement: the sides facing a cell outside the board close their ports. `seed(local, root)` is
 * called once for each neighbour root as it becomes a local node, to fill its `sums`. Returns how
 * many of the 4 sides touch a tile, or -1 when there are more local nodes than the scratch holds
 * (none in the games the library builds). Reads the state, writes only `scratch`. @internal
 */
export function mergeAround(rules: BoardRules, s: Immutable<GameView>, tile: CompiledTile, key: number, rotation: number, scratch: ClosingScratch, seed: ((local: number, root: number) => void) | null): number {
  const g = s.features;
  const { parent, open, root, sums } = scratch;
  const extra = sums.length;
  const nf = tile.kinds.length;
  for (let f = 0; f < nf; f++) {
    parent[f] = f;
    open[f] = tile.portCounts[f]!;
  }
  for (let c = 0; c < extra; c++) sums[c]!.fill(0, 0, nf);
  let n = nf;
  const pf = tile.portFeature;
  const rOff = rotation * 12;
  let sides = 0;
  for (let side = 0; side < 4; side++) {
    const nkey = key + SIDE_DELTA[side]!;
    const nt = tileAt(s, nkey);
    if (nt < 0) {
      if (rules.inside !== null && !rules.inside(nkey)) {
        for (let k = 0; k < 3; k++) open[localFind(parent, pf[rOff + side * 3 + k]!)]!--;
      }
      continue;
    }
    sides++;
    const other = s.tiles[nt]!;
    const ot = rules.tiles[other.kind]!;
    const oOff = other.rotation * 12;
    for (let k = 0; k < 3; k++) {
      const p = side * 3 + k;
      const here = pf[rOff + p]!;
      const r = findRoot(g.parent, other.node + ot.portFeature[oOff + OPPOSITE_PORT[p]!]!);
      let local = nf;
      while (local < n && root[local] !== r) local++;
      if (local === n) {
        if (n === MAX_LOCAL) return -1;
        parent[n] = n;
        open[n] = g.open[r]!;
        root[n] = r;
        if (seed !== null) seed(n, r);
        n++;
      }
      if (g.kind[r] === tile.kinds[here]) {
        let a = localFind(parent, here);
        let b = localFind(parent, local);
        if (a !== b) {
          if (b < a) [a, b] = [b, a];
          parent[b] = a;
          open[a]! += open[b]!;
          for (let c = 0; c < extra; c++) sums[c]![a]! += sums[c]![b]!;
        }
        open[a]! -= 2;
      } else {
        open[localFind(parent, here)]!--;
        open[localFind(parent, local)]!--;
      }
    }
  }
  scratch.size = n;
  return sides;
}

/**
 * How many features completed by their ports (roads and cities in classic) placing `tile` on the
 * empty cell `key` turned `rotation` would complete: its own and its neighbours' features that
 * the placement leaves without an open port. Assumes the placement is legal. It reads the state
 * and writes only `scratch`. @internal
 */
export function featuresClosed(rules: BoardRules, s: Immutable<GameView>, tile: CompiledTile, key: number, rotation: number, scratch: ClosingScratch): number {
  if (mergeAround(rules, s, tile, key, rotation, scratch, null) <= 0) return 0;
  const { parent, open, root } = scratch;
  const nf = tile.kinds.length;
  const g = s.features;
  let closed = 0;
  for (let i = 0; i < scratch.size; i++) {
    if (parent[i] !== i || open[i] !== 0) continue;
    const kind = i < nf ? tile.kinds[i]! : g.kind[root[i]!]!;
    if (rules.portCompleted[kind]) closed++;
  }
  return closed;
}
