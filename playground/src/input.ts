/**
 * Mouse, touch and keyboard. Taps and clicks are the same (pointer events make a tap a click).
 * Placing a tile: a click on a legal cell selects it and previews the tile there at the selected
 * rotation (or the next one that fits); a second click on the selected cell, Enter or the Place
 * button places it. The Rotate button and R turn the tile through the rotations that fit the
 * selected cell (all four when none is selected). The arrow keys move the selection to the
 * nearest legal cell in that direction; Escape clears it.
 */
import type { CellPlacements } from 'meeplekit/render';

/** The tile being placed: where and how it is turned. */
export interface Selection {
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

/** The rotation to use on `cell`: `wanted` if it fits, else the next that fits clockwise from it. */
export function fittingRotation(cell: CellPlacements, wanted: number): number {
  for (let i = 0; i < 4; i++) {
    const r = (wanted + i) % 4;
    if ((cell.rotations as readonly number[]).includes(r)) return r;
  }
  return cell.rotations[0] ?? 0;
}

/** The next rotation after `current`: the next that fits the selected cell, or the next quarter turn. */
export function nextRotation(cell: CellPlacements | undefined, current: number): number {
  if (cell === undefined) return (current + 1) % 4;
  return fittingRotation(cell, (current + 1) % 4);
}

/** The cell an arrow key moves to from `from`: the nearest legal cell that direction (ties: the straighter), or `from`. */
export function moveCursor(cells: readonly CellPlacements[], from: { x: number; y: number } | null, key: string): CellPlacements | undefined {
  if (cells.length === 0) return undefined;
  if (from === null) return cells[0];
  const d = key === 'ArrowUp' ? [0, -1] : key === 'ArrowDown' ? [0, 1] : key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowRight' ? [1, 0] : null;
  if (d === null) return undefined;
  let best: CellPlacements | undefined;
  let bestScore = Infinity;
  for (const c of cells) {
    const dx = c.x - from.x;
    const dy = c.y - from.y;
    const along = dx * d[0]! + dy * d[1]!;
    if (along <= 0) continue;
    const across = Math.abs(dx * d[1]! - dy * d[0]!);
    const score = along + 2 * across;
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  return best ?? cells.find((c) => c.x === from.x && c.y === from.y);
}

/** What the keyboard asks for. */
export interface KeyActions {
  /** An arrow key. */
  arrow(key: string): void;
  rotate(): void;
  place(): void;
  cancel(): void;
}

/** Binds the playing keys on `target` (ignored while typing in a form field). */
export function bindKeys(target: Document, actions: KeyActions): void {
  target.addEventListener('keydown', (event) => {
    const el = event.target as HTMLElement | null;
    if (el !== null && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key.startsWith('Arrow')) {
      event.preventDefault();
      actions.arrow(event.key);
    } else if (event.key === 'r' || event.key === 'R') {
      actions.rotate();
    } else if (event.key === 'Enter') {
      // Enter on a focused button is that button's click.
      if (el !== null && (el.tagName === 'BUTTON' || el.getAttribute('role') === 'button')) return;
      event.preventDefault();
      actions.place();
    } else if (event.key === 'Escape') {
      actions.cancel();
    }
  });
}
