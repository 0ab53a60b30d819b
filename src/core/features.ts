/**
 * The incremental feature graph: a union-find forest over feature segments, with totals kept at
 * the roots. Placing a tile adds one segment per local feature and unions across shared edges;
 * completion is read off a root's `open` count, never by rescanning the board.
 */
import type { FeatureGraph, PlacedTile } from './state.js';
import type { Immutable } from './types.js';

/** The shared, frozen empty twin list (immutable, so sharing it is safe). */
const NO_TILES = Object.freeze([] as number[]) as number[];

/** The root of segment `i`. Read-only: no path compression, so it is safe on frozen states. */
export function findRoot(parent: readonly number[], i: number): number {
  let p = parent[i]!;
  while (p !== i) {
    i = p;
    p = parent[i]!;
  }
  return i;
}

/** Adds a segment and returns its index. `twin`: see `CompiledTile.twins`. @internal */
export function addSegment(
  g: FeatureGraph,
  kind: number,
  tile: number,
  open: number,
  pennants: number,
  tracksTiles: boolean,
  twin: boolean,
): number {
  const i = g.parent.length;
  g.parent.push(i);
  g.kind.push(kind);
  g.tile.push(tile);
  g.open.push(open);
  g.pennants.push(pennants);
  g.followers.push(0);
  g.size.push(tracksTiles ? 1 : 0);
  // Twin lists are replaced, never changed, so copies of a state share them. Born unfrozen (for
  // speed); applyMove freezes the ones it adopts.
  g.twins.push(twin ? [tile] : NO_TILES);
  return i;
}

/**
 * Joins the features of segments `a` and `b` and returns the new root. The older (lower) root
 * wins, which keeps trees shallow (new tiles hang directly under old roots) and the result
 * independent of call order. Totals are summed; a tile on both sides (only a twin can be: see
 * `FeatureGraph.twins`) is counted once.
 */
export function unionFeatures(g: FeatureGraph, a: number, b: number): number {
  let ra = findRoot(g.parent, a);
  let rb = findRoot(g.parent, b);
  if (ra === rb) return ra;
  if (rb < ra) {
    const t = ra;
    ra = rb;
    rb = t;
  }
  g.parent[rb] = ra;
  g.open[ra]! += g.open[rb]!;
  g.pennants[ra]! += g.pennants[rb]!;
  g.followers[ra]! += g.followers[rb]!;
  g.size[ra]! += g.size[rb]!;
  const gone = g.twins[rb]!;
  if (gone.length > 0) {
    const keep = g.twins[ra]!;
    let merged: number[] | null = null;
    for (let i = 0; i < gone.length; i++) {
      const t = gone[i]!;
      if (keep.includes(t)) g.size[ra]!--;
      else (merged ??= [...keep]).push(t);
    }
    if (merged !== null) g.twins[ra] = merged;
    g.twins[rb] = NO_TILES;
  }
  return ra;
}

/**
 * The local feature index of segment `seg` on its tile: a tile's segments are numbered from its
 * `node`, in local feature order.
 */
export function segmentLocal(g: Immutable<FeatureGraph>, tiles: Immutable<readonly PlacedTile[]>, seg: number): number {
  return seg - tiles[g.tile[seg]!]!.node;
}

/** Number of distinct tiles of feature `root` (0 for kinds that do not track tiles). */
export function tileCount(g: Immutable<FeatureGraph>, root: number): number {
  return g.size[root]!;
}

/**
 * The distinct tiles feature `root` lies on, ascending: a walk over every segment, for queries, not
 * for the rules' hot paths.
 */
export function featureTiles(g: Immutable<FeatureGraph>, root: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < g.parent.length; i++) {
    if (findRoot(g.parent, i) === root && (out.length === 0 || out[out.length - 1] !== g.tile[i])) out.push(g.tile[i]!);
  }
  // Segments are numbered in placement order, so tiles come ascending; a tile's own segments are
  // consecutive (the duplicates skipped above).
  return out;
}
