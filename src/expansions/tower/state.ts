/**
 * The Tower's state slice and the small look-ups every mechanism of the module shares. All of it
 * is public: `observe` shows it whole.
 */
import type { GameState, GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';

/** The expansion's id. */
export const TOWER = 'tower';

/**
 * Tower pieces per player by player count, as the rulebook's table gives them ("Příprava hry":
 * 2 hráči 10, 3 hráči 9, 4 hráči 7, 5 hráčů 6). The 6-player row (5 pieces) needs Inns and
 * Cathedrals, which this library does not have, so six players stay refused like in the base game.
 */
export const TOWER_PIECES: Readonly<Record<number, number>> = { 2: 10, 3: 9, 4: 7, 5: 6 };

/** One tower foundation on the board, and the tower on it. */
export interface Tower {
  /** Column of its tile. */
  readonly x: number;
  /** Row of its tile. */
  readonly y: number;
  /** Tower pieces on it (0: an empty foundation). */
  height: number;
  /** Owner of the follower on top (-1: none; a tower with one may not grow). */
  top: number;
}

/** The Tower's state slice (`state.ext['tower']`): plain JSON, all public. */
export interface TowerState {
  /** Tower pieces left per player. */
  pieces: number[];
  /** Every foundation on the board, in canonical order: by cell, north to south, west to east. */
  towers: Tower[];
  /** `prisoners[captor][owner]`: followers of `owner` held by `captor` (never both ways at once: they are exchanged). */
  prisoners: number[][];
  /** The turn (`state.turn`) in which the active player last paid a ransom (-1: never): once per turn. */
  ransomTurn: number;
}

/**
 * The slice of a state or a view: `sliceOf(state, TOWER)`, read with the constant key (a property
 * load the engine caches at this site, where `sliceOf`'s key varies with its callers): asked at
 * every step of a turn (the ransom).
 */
export function towerSlice(state: Immutable<GameView> | GameState): TowerState {
  return state.ext[TOWER] as TowerState;
}

/** Index in `towers` of the foundation at `x, y`, or -1. */
export function towerIndexAt(slice: Immutable<TowerState>, x: number, y: number): number {
  const towers = slice.towers;
  for (let i = 0; i < towers.length; i++) if (towers[i]!.x === x && towers[i]!.y === y) return i;
  return -1;
}

/** Followers of `owner` held as prisoners by anyone. */
export function prisonersOf(slice: Immutable<TowerState>, owner: number): number {
  let n = 0;
  for (const row of slice.prisoners) n += row[owner]!;
  return n;
}

/** The player who decides the current step (-1 when the game is over). */
export function decider(state: Immutable<GameView>): number {
  return state.step.kind === 'game-over' ? -1 : state.step.player;
}
