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

/** Scratch of {@link featuresClosed}, reused across calls (one per search). @internal */
export interface ClosingScratch {
  readonly parent: Int32Array;
  readonly open: Int32Array;
  /** The feature-graph root each neighbour node stands for. */
  readonly root: Int32Array;
}

/** A scratch for {@link featuresClosed}. @internal */
export function newClosingScratch(): ClosingScratch {
  return { parent: new Int32Array(MAX_LOCAL), open: new Int32Array(MAX_LOCAL), root: new Int32Array(MAX_LOCAL) };
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) i = parent[i]!;
  return i;
}

/**
 * How many features completed by their ports (roads and cities in classic) placing `tile` on the
 * empty cell `key` turned `rotation` would complete: its own and its neighbours' features that
 * the placement leaves without an open port. Assumes the placement is legal. It reads the state
 * and writes only `scratch`. @internal
 */
export function featuresClosed(rules: BoardRules, s: Immutable<GameView>, tile: CompiledTile, key: number, rotation: number, scratch: ClosingScratch): number {
  const g = s.features;
  const { parent, open, root } = scratch;
  const nf = tile.kinds.length;
  for (let f = 0; f < nf; f++) {
    parent[f] = f;
    open[f] = tile.portCounts[f]!;
  }
  let n = nf;
  const pf = tile.portFeature;
  const rOff = rotation * 12;
  let touched = false;
  for (let side = 0; side < 4; side++) {
    const nkey = key + SIDE_DELTA[side]!;
    const nt = tileAt(s, nkey);
    if (nt < 0) {
      if (rules.inside !== null && !rules.inside(nkey)) {
        for (let k = 0; k < 3; k++) open[find(parent, pf[rOff + side * 3 + k]!)]!--;
      }
      continue;
    }
    touched = true;
    const other = s.tiles[nt]!;
    const ot = rules.tiles[other.kind]!;
    const oOff = other.rotation * 12;
    for (let k = 0; k < 3; k++) {
      const p = side * 3 + k;
      const mine = pf[rOff + p]!;
      const r = findRoot(g.parent, other.node + ot.portFeature[oOff + OPPOSITE_PORT[p]!]!);
      let local = nf;
      while (local < n && root[local] !== r) local++;
      if (local === n) {
        if (n === MAX_LOCAL) return 0;
        parent[n] = n;
        open[n] = g.open[r]!;
        root[n] = r;
        n++;
      }
      if (g.kind[r] === tile.kinds[mine]) {
        let a = find(parent, mine);
        let b = find(parent, local);
        if (a !== b) {
          if (b < a) [a, b] = [b, a];
          parent[b] = a;
          open[a]! += open[b]!;
        }
        open[a]! -= 2;
      } else {
        open[find(parent, mine)]!--;
        open[find(parent, local)]!--;
      }
    }
  }
  if (!touched) return 0;
  let closed = 0;
  for (let i = 0; i < n; i++) {
    if (parent[i] !== i || open[i] !== 0) continue;
    const kind = i < nf ? tile.kinds[i]! : g.kind[root[i]!]!;
    if (rules.portCompleted[kind]) closed++;
  }
  return closed;
}
