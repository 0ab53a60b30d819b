/**
 * The Castle's end of the game measures the largest empty area of the play area: a flood fill.
 */
import type { GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import type { CastleLayout } from './data.js';

/**
 * Scratch for {@link largestEmptyRegion}, grown to the largest board seen: module-level, and pure
 * scratch. `open` is fully rewritten (every one of the board's cells) before each use, and a
 * `stack` entry is read only after this same call wrote it; nothing carries over from one call
 * to the next. It saves allocating two typed arrays of the board's size in every game's final
 * scoring.
 */
let scratchOpen = new Uint8Array(0);
let scratchStack = new Int32Array(0);

/**
 * The size of the largest orthogonally connected group of empty play-area cells of `layout`
 * with `tiles` laid (digest, End of game 1).
 */
export function largestEmptyRegion(layout: CastleLayout, tiles: Immutable<GameView>['tiles']): number {
  const w = layout.width;
  const h = layout.height;
  if (scratchOpen.length < w * h) {
    scratchOpen = new Uint8Array(w * h);
    scratchStack = new Int32Array(w * h);
  }
  // 1 = empty cell of the play area not yet counted.
  const open = scratchOpen;
  for (let i = 0; i < w * h; i++) open[i] = layout.inside[i]!;
  for (const t of tiles) if (t.x >= 0 && t.y >= 0 && t.x < w && t.y < h) open[t.y * w + t.x] = 0;
  // Flood fill with an explicit stack (each cell is pushed at most once).
  const stack = scratchStack;
  let best = 0;
  for (let start = 0; start < w * h; start++) {
    if (open[start] === 0) continue;
    open[start] = 0;
    let top = 0;
    stack[top++] = start;
    let size = 0;
    while (top > 0) {
      const i = stack[--top]!;
      size++;
      const x = i % w;
      if (x > 0 && open[i - 1] === 1) {
        open[i - 1] = 0;
        stack[top++] = i - 1;
      }
      if (x < w - 1 && open[i + 1] === 1) {
        open[i + 1] = 0;
        stack[top++] = i + 1;
      }
      if (i >= w && open[i - w] === 1) {
        open[i - w] = 0;
        stack[top++] = i - w;
      }
      if (i + w < w * h && open[i + w] === 1) {
        open[i + w] = 0;
        stack[top++] = i + w;
      }
    }
    if (size > best) best = size;
  }
  return best;
}

