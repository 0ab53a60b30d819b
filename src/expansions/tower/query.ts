/**
 * What a UI asks about a tower: `towerAt`. (Towers are not features: `featureAt` describes the
 * roads, cities, cloisters and fields of a tile; a tower on it is answered here.)
 */
import { meepleError, type MeepleError } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { Ruleset } from '../../core/ruleset.js';
import { keyX, keyY, type GameView } from '../../core/state.js';
import type { Cell, Immutable } from '../../core/types.js';
import { captureTargets, reachOf, type CaptureTarget } from './capture.js';
import { towerIndexAt, towerSlice, TOWER } from './state.js';

/** A foundation and its tower, with what a piece added now would reach. */
export interface TowerInfo {
  /** Column. */
  readonly x: number;
  /** Row. */
  readonly y: number;
  /** Tower pieces on it (0: an empty foundation). */
  readonly height: number;
  /** Owner of the follower on top, or -1. */
  readonly top: number;
  /** Cells the tower reaches at its height (empty for an empty foundation), north to south, west to east. */
  readonly reach: readonly Cell[];
  /** Cells a piece added now would reach (height + 1), or none when the tower has a follower on top. */
  readonly nextReach: readonly Cell[];
  /**
   * What the player deciding now could capture by adding a piece here (none when they could not
   * add one: a follower on top, no pieces left), in canonical order.
   */
  readonly threats: readonly CaptureTarget[];
}

/**
 * The foundation or tower at `x, y` of a state or a player's view, with its reach.
 * Errors: `state/ruleset-mismatch`, `tower/no-foundation` (no foundation there, or the ruleset has no Tower).
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { tower, towerAt } from 'meeplekit/expansions/tower';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [tower()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'tower' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(towerAt(rules.value, game.value, 0, 1).ok); // false: no foundation there yet
 * ```
 */
export function towerAt(rules: Ruleset, state: Immutable<GameView>, x: number, y: number): Result<TowerInfo, MeepleError> {
  if (state.ruleset !== rules.id) return err(meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`));
  const slice = (state.ext as Record<string, unknown>)[TOWER] === undefined ? null : towerSlice(state);
  const i = slice === null || !Number.isInteger(x) || !Number.isInteger(y) ? -1 : towerIndexAt(slice, x, y);
  if (slice === null || i < 0) return err(meepleError('tower/no-foundation', `no tower foundation at ${String(x)},${String(y)}`));
  const t = slice.towers[i]!;
  const cells = (keys: readonly number[]): Cell[] => keys.map((k) => ({ x: keyX(k), y: keyY(k) }));
  const open = t.top < 0;
  const player = state.step.kind === 'game-over' ? -1 : state.step.player;
  const canBuild = open && player >= 0 && slice.pieces[player]! > 0;
  return ok({
    x: t.x,
    y: t.y,
    height: t.height,
    top: t.top,
    reach: cells(reachOf(state, t.x, t.y, t.height)),
    nextReach: open ? cells(reachOf(state, t.x, t.y, t.height + 1)) : [],
    threats: canBuild ? captureTargets(rules, state, t.x, t.y, t.height + 1, player) : [],
  });
}
