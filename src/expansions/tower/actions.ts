/**
 * The Tower's part of the integer action encoding of `meeplekit/ai` (`Expansion.actions`),
 * version 1. Local ids, in this order:
 * - `tower/build` at window cell c: `c` (cell index `(y - window.y) * width + (x - window.x)`);
 * - `tower/cap` at window cell c: `cells + c`;
 * - `tower/capture`: `2 * cells + (reach * FEATURE_SLOTS + slot) * MAX_SEATS + owner`, where
 *   `reach` is 0 for the tower's own cell and `1 + side * MAX_REACH + (distance - 1)` along side
 *   N, E, S, W, `slot` the captured follower's local feature index (`FEATURE_SLOTS - 1`: the tower
 *   top) and `owner` its owner's seat;
 * - `tower/decline`: the next id; then `tower/ransom` from captor seat s: one more + s.
 */
import type { Expansion } from '../../core/expansion.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type ExpansionMove, type GameView } from '../../core/state.js';
import { tileAt } from '../../core/board.js';
import type { Immutable } from '../../core/types.js';
import { TOP, type TowerCaptureStep } from './capture.js';

/** Longest reach with an id: the most pieces one tower can get (five players with 6 pieces each). */
const MAX_REACH = 30;
/** Local feature indices with an id (every tile has fewer features), plus one slot for the tower top. */
const FEATURE_SLOTS = 16;
/** Seats with an id (the most players any ruleset allows). */
const MAX_SEATS = 6;
const REACHES = 1 + 4 * MAX_REACH;
const CAPTURES = REACHES * FEATURE_SLOTS * MAX_SEATS;
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;

type Window = Readonly<Record<'x' | 'y' | 'width' | 'height', number>>;

function cellIndex(window: Window, x: unknown, y: unknown): number {
  if (!Number.isInteger(x) || !Number.isInteger(y)) return -1;
  const cx = (x as number) - window.x;
  const cy = (y as number) - window.y;
  return cx < 0 || cy < 0 || cx >= window.width || cy >= window.height ? -1 : cy * window.width + cx;
}

/** The reach index of cell `x, y` from the tower at `tx, ty`, or -1 when it is not on a straight line within MAX_REACH. */
function reachIndex(tx: number, ty: number, x: number, y: number): number {
  const dx = x - tx;
  const dy = y - ty;
  if (dx === 0 && dy === 0) return 0;
  for (let side = 0; side < 4; side++) {
    const d = DX[side] !== 0 ? dx * DX[side]! : dy * DY[side]!;
    if (d >= 1 && d <= MAX_REACH && dx === DX[side]! * d && dy === DY[side]! * d) return 1 + side * MAX_REACH + (d - 1);
  }
  return -1;
}

/** The Tower's codec (`Expansion.actions`). */
export const towerActions: NonNullable<Expansion['actions']> = {
  version: 1,
  size: (window) => 2 * window.width * window.height + CAPTURES + 1 + MAX_SEATS,
  // Per tile at most one piece or top, one capture or decline and one ransom; games of up to 256 tiles.
  maxMoves: () => 3 * 256,
  encode(rules: Ruleset, state: Immutable<GameView>, move: ExpansionMove, window: Window): number {
    const m = move as Readonly<Record<string, unknown>>;
    const cells = window.width * window.height;
    switch (m['type']) {
      case 'tower/build':
      case 'tower/cap': {
        const c = cellIndex(window, m['x'], m['y']);
        return c < 0 ? -1 : (m['type'] === 'tower/cap' ? cells : 0) + c;
      }
      case 'tower/capture': {
        const step = state.step as Immutable<TowerCaptureStep>;
        if (step.kind !== 'tower/capture' || !Number.isInteger(m['x']) || !Number.isInteger(m['y'])) return -1;
        const reach = reachIndex(step.x, step.y, m['x'] as number, m['y'] as number);
        const owner = m['owner'];
        if (reach < 0 || !Number.isInteger(owner) || (owner as number) < 0 || (owner as number) >= MAX_SEATS) return -1;
        let slot = FEATURE_SLOTS - 1;
        if (m['feature'] !== TOP) {
          const t = Math.abs(m['x'] as number) < 500 && Math.abs(m['y'] as number) < 500 ? tileAt(state, cellKey(m['x'] as number, m['y'] as number)) : -1;
          if (t < 0) return -1;
          const local = rules.tileById.get(state.tiles[t]!.id)!.localIndex;
          if (typeof m['feature'] !== 'string' || !Object.hasOwn(local, m['feature'])) return -1;
          slot = local[m['feature']]!;
          if (slot >= FEATURE_SLOTS - 1) return -1;
        }
        return 2 * cells + (reach * FEATURE_SLOTS + slot) * MAX_SEATS + (owner as number);
      }
      case 'tower/decline':
        return 2 * cells + CAPTURES;
      case 'tower/ransom': {
        const captor = m['captor'];
        return Number.isInteger(captor) && (captor as number) >= 0 && (captor as number) < MAX_SEATS ? 2 * cells + CAPTURES + 1 + (captor as number) : -1;
      }
      default:
        return -1;
    }
  },
  decode(rules: Ruleset, state: Immutable<GameView>, id: number, window: Window): ExpansionMove | null {
    if (state.step.kind === 'game-over' || !Number.isInteger(id) || id < 0) return null;
    const player = state.step.player;
    const cells = window.width * window.height;
    if (id < 2 * cells) {
      const c = id % cells;
      const x = window.x + (c % window.width);
      const y = window.y + Math.floor(c / window.width);
      return { type: id < cells ? 'tower/build' : 'tower/cap', player, x, y };
    }
    let rest = id - 2 * cells;
    if (rest < CAPTURES) {
      const step = state.step as Immutable<TowerCaptureStep>;
      if (step.kind !== 'tower/capture') return null;
      const owner = rest % MAX_SEATS;
      rest = (rest - owner) / MAX_SEATS;
      const slot = rest % FEATURE_SLOTS;
      const reach = (rest - slot) / FEATURE_SLOTS;
      let x = step.x;
      let y = step.y;
      if (reach > 0) {
        const side = Math.floor((reach - 1) / MAX_REACH);
        const d = ((reach - 1) % MAX_REACH) + 1;
        x += DX[side]! * d;
        y += DY[side]! * d;
      }
      let feature = TOP;
      if (slot !== FEATURE_SLOTS - 1) {
        const t = tileAt(state, cellKey(x, y));
        if (t < 0) return null;
        const f = rules.tileById.get(state.tiles[t]!.id)!.def.features[slot];
        if (f === undefined) return null;
        feature = f.id;
      }
      return { type: 'tower/capture', player, x, y, feature, owner };
    }
    rest -= CAPTURES;
    if (rest === 0) return { type: 'tower/decline', player };
    return rest - 1 < MAX_SEATS ? { type: 'tower/ransom', player, captor: rest - 1 } : null;
  },
};
