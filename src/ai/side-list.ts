/**
 * The tile sides that a cached observation writer has written, each with the feature root and the
 * open ports it wrote, so that the next write of the same game rewrites only the sides whose
 * feature's open ports changed since (a union or a completion). Shared by the compact rows
 * (src/ai/compact-row-cache.ts) and the entity blocks (src/ai/entity-row-cache.ts).
 */
import { findRoot } from '../core/features.js';

/** An Int32Array at least `n` long holding `a`'s first `keep` entries: `a` itself when long enough. @internal */
export function grown(a: Int32Array, n: number, keep: number): Int32Array {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, 2 * a.length));
  b.set(a.subarray(0, keep));
  return b;
}

/**
 * Sides written, in parallel arrays grown as needed: for side j, the writer's two entries (where
 * its open ports and its complete flag went: a byte or a float, a bit, as the writer says), the
 * root of its feature seen last and the open ports written. `changed` holds, after
 * {@link changedSides}, the indices of the sides to rewrite. @internal
 */
export interface SideList {
  entry: Int32Array;
  extra: Int32Array;
  root: Int32Array;
  open: Int32Array;
  changed: Int32Array;
  /** Sides in the list. */
  count: number;
}

/** An empty list. @internal */
export function newSideList(): SideList {
  return { entry: new Int32Array(64), extra: new Int32Array(64), root: new Int32Array(64), open: new Int32Array(64), changed: new Int32Array(64), count: 0 };
}

/** Adds a side the writer has just written. @internal */
export function addSide(list: SideList, entry: number, extra: number, root: number, open: number): void {
  const j = list.count++;
  if (j >= list.root.length) {
    list.entry = grown(list.entry, j + 1, j);
    list.extra = grown(list.extra, j + 1, j);
    list.root = grown(list.root, j + 1, j);
    list.open = grown(list.open, j + 1, j);
    list.changed = grown(list.changed, j + 1, 0);
  }
  list.entry[j] = entry;
  list.extra[j] = extra;
  list.root[j] = root;
  list.open[j] = open;
}

/**
 * Finds the sides whose feature's open ports differ from those written, records the new count in
 * the list, and writes their indices to `list.changed`; returns how many. Features join and
 * complete only when a tile is laid: a writer may skip the call when none was laid since its last
 * write. @internal
 */
export function changedSides(list: SideList, parent: readonly number[], openOf: readonly number[]): number {
  const { root, open, changed } = list;
  let k = 0;
  for (let j = 0; j < list.count; j++) {
    let r = root[j]!;
    // Unions only ever re-parent roots: while r is a root, it is still the side's root.
    if (parent[r] !== r) root[j] = r = findRoot(parent, r);
    const now = openOf[r]!;
    if (now === open[j]) continue;
    open[j] = now;
    changed[k++] = j;
  }
  return k;
}
