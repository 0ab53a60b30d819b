/**
 * A coarse raster of one tile (50 x 50 cells of 2 x 2 tile units), used to find room in a
 * picture: where a follower stands on a field (the free room a field's ports reach), the point
 * of a city farthest from its walls, a free spot for a symbol. Computed once per tile kind.
 */
import type { Point } from './svg.js';

/** Cells per side. */
export const GRID = 50;
/** Tile units per cell. */
const CELL = 100 / GRID;

/** The centre of cell `i` (row-major). */
export function cellCentre(i: number): Point {
  return { x: ((i % GRID) + 0.5) * CELL, y: (((i / GRID) | 0) + 0.5) * CELL };
}

/** The cell holding a point (clamped to the tile). */
export function cellOf(p: Point): number {
  const cx = Math.min(GRID - 1, Math.max(0, Math.floor(p.x / CELL)));
  const cy = Math.min(GRID - 1, Math.max(0, Math.floor(p.y / CELL)));
  return cy * GRID + cx;
}

/** Cells for which `test` holds, as a flag array. */
export function cellsWhere(test: (p: Point) => boolean): Uint8Array {
  const out = new Uint8Array(GRID * GRID);
  for (let i = 0; i < out.length; i++) out[i] = test(cellCentre(i)) ? 1 : 0;
  return out;
}

/**
 * Grows labels over free cells (`free[i] === 1`) from seed cells, breadth first, 4-neighbour:
 * each free cell reachable from a seed gets the label of the nearest seed (ties: the earlier
 * seed). Returns the label per cell, -1 for cells no seed reaches.
 */
export function growLabels(free: Uint8Array, seeds: readonly (readonly [cell: number, label: number])[]): Int16Array {
  const label = new Int16Array(GRID * GRID).fill(-1);
  const queue: number[] = [];
  for (const [cell, l] of seeds) {
    if (free[cell] === 1 && label[cell] === -1) {
      label[cell] = l;
      queue.push(cell);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head]!;
    const x = c % GRID;
    const y = (c / GRID) | 0;
    const next = [x > 0 ? c - 1 : -1, x < GRID - 1 ? c + 1 : -1, y > 0 ? c - GRID : -1, y < GRID - 1 ? c + GRID : -1];
    for (const n of next) {
      if (n >= 0 && free[n] === 1 && label[n] === -1) {
        label[n] = label[c]!;
        queue.push(n);
      }
    }
  }
  return label;
}

/**
 * The cell of `region` (flags) farthest from every cell outside it and from the tile's edge
 * (chamfer distance), or -1 for an empty region. Ties go to the cell nearest `prefer`.
 */
export function deepestCell(region: Uint8Array, prefer: Point): number {
  const dist = depths(region);
  let best = -1;
  let bestScore = -Infinity;
  for (let i = 0; i < dist.length; i++) {
    if (region[i] !== 1) continue;
    const c = cellCentre(i);
    // Depth first, capped so that a very deep region still prefers the point nearest `prefer`.
    const score = Math.min(dist[i]!, 9) * 100 - Math.hypot(c.x - prefer.x, c.y - prefer.y);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/** Per cell of `region`, its chamfer distance in cells to the nearest cell outside it or to the tile's edge (0 outside). */
export function depths(region: Uint8Array): Float32Array {
  const n = GRID * GRID;
  const dist = new Float32Array(n);
  for (let i = 0; i < n; i++) dist[i] = region[i] === 1 ? 1e6 : 0;
  const D = 1;
  const DD = Math.SQRT2;
  const at = (x: number, y: number): number => (x < 0 || y < 0 || x >= GRID || y >= GRID ? 0 : dist[y * GRID + x]!);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const i = y * GRID + x;
      if (dist[i] === 0) continue;
      dist[i] = Math.min(dist[i]!, at(x - 1, y) + D, at(x, y - 1) + D, at(x - 1, y - 1) + DD, at(x + 1, y - 1) + DD);
    }
  }
  for (let y = GRID - 1; y >= 0; y--) {
    for (let x = GRID - 1; x >= 0; x--) {
      const i = y * GRID + x;
      if (dist[i] === 0) continue;
      dist[i] = Math.min(dist[i]!, at(x + 1, y) + D, at(x, y + 1) + D, at(x + 1, y + 1) + DD, at(x - 1, y + 1) + DD);
    }
  }
  return dist;
}
