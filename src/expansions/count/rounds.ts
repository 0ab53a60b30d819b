/**
 * What the Count's hooks and moves ask of a state: its slice, the quarter matching a feature, the
 * order of a move-out round, and features named as moves name them.
 */
import { tileAt } from '../../core/board.js';
import { featureRef } from '../../core/engine/scoring.js';
import { findRoot } from '../../core/features.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type GameState, type GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { COUNT, type CountState } from './state.js';
import { QUARTERS, type Quarter } from './tiles.js';

/** The quarter whose followers may go onto a feature scored as `scoring` (`market` only at the end), or null. */
export function quarterFor(scoring: string | undefined): Quarter | null {
  switch (scoring) {
    case 'city':
      return 'castle';
    case 'road':
      return 'blacksmith';
    case 'cloister': // shrines score as cloisters
      return 'cathedral';
    case 'field':
      return 'market';
    default:
      return null;
  }
}

/**
 * The Count's slice of a state or a view: `sliceOf(state, COUNT)`, read with the constant key (a
 * property load cached at this site, where `sliceOf`'s key varies with its callers): asked by
 * several hooks every turn.
 */
export function sliceOfState(state: Immutable<GameView> | GameState): CountState {
  return state.ext[COUNT] as CountState;
}

/** Followers of `player` in all quarters. */
export function heldBy(slice: Immutable<CountState>, player: number): number {
  let n = 0;
  for (const q of QUARTERS) n += slice.quarters[q][player]!;
  return n;
}

/** The decider of the current step (-1 at game over). */
export function decider(state: Immutable<GameView>): number {
  return state.step.kind === 'game-over' ? -1 : state.step.player;
}

/**
 * The next player of a move-out round after position `from` (-1 before the first): the round runs
 * from the active player's left round to the active player, skipping those with no follower in
 * the quarter. -1 when the round is over.
 */
export function nextMover(state: Immutable<GameView>, slice: Immutable<CountState>, quarter: Quarter, from: number): number {
  const n = state.players;
  for (let i = from + 1; i < n; i++) {
    const p = (state.active + 1 + i) % n;
    if (slice.quarters[quarter][p]! > 0) return p;
  }
  return -1;
}

/** Position of `player` in the move-out round (the active player's left is 0, the active player n - 1). */
export function roundIndex(state: Immutable<GameView>, player: number): number {
  const n = state.players;
  return (player - state.active - 1 + 2 * n) % n;
}

/** The player who placed the last tile (the end of the game starts at their left). */
export function lastPlacer(state: Immutable<GameView>): number {
  for (let i = state.tiles.length - 1; i >= 0; i--) {
    const p = state.tiles[i]!.player;
    if (p >= 0) return p;
  }
  return (state.active + state.players - 1) % state.players;
}

/** The root segment a move's `x, y, feature` names, or -1. */
export function rootNamed(rules: Ruleset, state: Immutable<GameView>, m: Readonly<Record<string, unknown>>): number {
  const x = m['x'];
  const y = m['y'];
  const feature = m['feature'];
  if (!Number.isInteger(x) || !Number.isInteger(y) || typeof feature !== 'string') return -1;
  if (Math.abs(x as number) >= 500 || Math.abs(y as number) >= 500) return -1;
  const t = tileAt(state, cellKey(x as number, y as number));
  if (t < 0) return -1;
  const placed = state.tiles[t]!;
  const tile = rules.tiles[placed.kind]!;
  if (!Object.hasOwn(tile.localIndex, feature)) return -1;
  return findRoot(state.features.parent, placed.node + tile.localIndex[feature]!);
}

/** A feature named by its root segment, as moves name it. */
export function nameOf(rules: Ruleset, state: Immutable<GameView>, root: number): { x: number; y: number; feature: string } {
  const ref = featureRef(rules, state, root);
  return { x: ref.x, y: ref.y, feature: ref.feature };
}
