/**
 * The turn's action, the Tower's way: after placing a tile the player may, instead of deploying a
 * follower, add a piece to any foundation or tower (`tower/build`), or put a follower on top of any
 * tower (`tower/cap`). The Tower rules, "Průběh hry": "Umístit jeden ze svých dílků věže na
 * kteroukoli kartu krajiny se základy věže. Umístit jeden ze svých dílků věže na kteroukoli již
 * rozestavěnou věž. Umístit jednu svoji figurku na kteroukoli věž a tím zabránit další stavbě této
 * věže." Each is one of the four alternatives: one per turn.
 */
import { type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { canCapture } from './capture.js';
import { towerIndexAt, towerSlice } from './state.js';

/**
 * The Tower's alternatives to a follower at the deploy step, for the player who placed the tile:
 * a piece on each foundation or tower without a follower on top (while the player has pieces),
 * then a follower on top of each tower (height 1 or more) without one (while the player has a
 * follower in supply); each list by cell.
 */
export function actionMoves(_rules: Ruleset, state: Immutable<GameView>): Move[] {
  const slice = towerSlice(state);
  if (slice.towers.length === 0) return [];
  const player = state.active;
  const out: Move[] = [];
  const sorted = slice.towers; // kept by cell (canonical order)
  if (slice.pieces[player]! > 0) {
    for (const t of sorted) if (t.top < 0) out.push({ type: 'tower/build', player, x: t.x, y: t.y });
  }
  if (state.supply[player]! > 0) {
    for (const t of sorted) if (t.top < 0 && t.height > 0) out.push({ type: 'tower/cap', player, x: t.x, y: t.y });
  }
  return out;
}

/**
 * Adds one of `player`'s pieces to the tower at `x, y`; then, when a follower of another player
 * is in reach, asks for the capture (`'wait'` on a `tower/capture` step), else `'done'`.
 */
export function playBuild(ctx: HookContext, player: number, x: number, y: number): 'wait' | 'done' {
  const { state, emit } = ctx;
  const slice = towerSlice(state);
  const tower = slice.towers[towerIndexAt(slice, x, y)]!;
  tower.height++;
  slice.pieces[player]!--;
  emitExpansionEvent(emit, 'tower/built', { player, x, y, height: tower.height });
  if (!canCapture(state, x, y, tower.height, player)) return 'done';
  state.step = { kind: 'tower/capture', player, x, y, height: tower.height };
  return 'wait';
}

/**
 * Puts a follower of `player` from supply on top of the tower at `x, y`: "Figurka zůstává na věži
 * až do konce hry" (its owner cannot take it back; it can still be captured), and while it stands
 * there the tower may not grow.
 */
export function playCap(ctx: HookContext, player: number, x: number, y: number): 'done' {
  const slice = towerSlice(ctx.state);
  slice.towers[towerIndexAt(slice, x, y)]!.top = player;
  ctx.state.supply[player]!--;
  emitExpansionEvent(ctx.emit, 'tower/capped', { player, x, y });
  return 'done';
}
