/**
 * The incremental feature graph: a union-find forest over feature segments, with totals kept at
 * the roots. Placing a tile adds one node per local feature and unions across shared edges;
 * completion is read off a root's `open` count, never by rescanning the board.
 */
import type { FeatureNode, GameState } from './state.js';
import type { Immutable } from './types.js';

/** The root of node `i`. Read-only: no path compression, so it is safe on frozen states. */
export function findRoot(nodes: Immutable<FeatureNode[]> | FeatureNode[], i: number): number {
  let n = nodes[i]!;
  while (n.parent !== i) {
    i = n.parent;
    n = nodes[i]!;
  }
  return i;
}

/**
 * Joins the features of nodes `a` and `b` and returns the new root. The older (lower) root
 * wins, which keeps trees shallow (new tiles hang directly under old roots) and the result
 * independent of call order. Totals are summed; tile lists are merged without duplicates, so a
 * tile crossed twice by one feature counts once.
 */
export function unionFeatures(nodes: FeatureNode[], a: number, b: number): number {
  let ra = findRoot(nodes, a);
  let rb = findRoot(nodes, b);
  if (ra === rb) return ra;
  if (rb < ra) {
    const t = ra;
    ra = rb;
    rb = t;
  }
  const keep = nodes[ra]!;
  const gone = nodes[rb]!;
  gone.parent = ra;
  keep.open += gone.open;
  keep.pennants += gone.pennants;
  keep.followers += gone.followers;
  const kt = keep.tiles;
  const gt = gone.tiles;
  for (let i = 0; i < gt.length; i++) {
    const t = gt[i]!;
    if (!kt.includes(t)) kt.push(t);
  }
  if (gt.length > 0) gone.tiles = [];
  return ra;
}

/** The node of local feature `local` on placed tile `tile`. */
export function nodeOf(state: Immutable<GameState> | GameState, tile: number, local: number): number {
  return state.tiles[tile]!.node + local;
}
