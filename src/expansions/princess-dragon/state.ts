/**
 * The Princess and the Dragon's state slice and the look-ups its mechanisms share. All of it is
 * public (the dragon, the fairy and a flight in progress lie on the table).
 */
import { tileAt } from '../../core/board.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, type GameState, type GameView } from '../../core/state.js';
import type { Cell, Immutable } from '../../core/types.js';

/** The expansion's id. */
export const PRINCESS_DRAGON = 'princess-dragon';

/** Steps of one dragon flight: "Drak sa pohybuje vždy o šesť polí nezávisle na tom, koľko hráčov hrá". */
export const FLIGHT_STEPS = 6;

/** A dragon flight in progress. */
export interface Flight {
  /** The cells the dragon has been on in this flight, its starting cell first: it enters none of them again. */
  visited: Cell[];
}

/** The Princess and the Dragon's state slice (`state.ext['princess-dragon']`): plain JSON, all public. */
export interface PrincessDragonState {
  /** Where the dragon is; null while it is off the board (before the first volcano). */
  dragon: Cell | null;
  /** Where the fairy is; null while it is off the board (before anyone moved it). */
  fairy: Cell | null;
  /** The flight in progress, or null. */
  flight: Flight | null;
}

/**
 * The slice of a state or a view: `sliceOf(state, PRINCESS_DRAGON)`, read with the constant key
 * (a property load the engine caches at this site, where `sliceOf`'s key varies with its callers):
 * asked several times at every step of a turn.
 */
export function pdSlice(state: Immutable<GameView> | GameState): PrincessDragonState {
  return state.ext[PRINCESS_DRAGON] as PrincessDragonState;
}

/** The tile index at `x, y`, or -1 (coordinates checked, so any numbers may be passed). */
export function tileIndexAt(state: Immutable<GameView>, x: unknown, y: unknown): number {
  if (!Number.isInteger(x) || !Number.isInteger(y) || Math.abs(x as number) >= 500 || Math.abs(y as number) >= 500) return -1;
  return tileAt(state, cellKey(x as number, y as number));
}

/** The tile placed this turn by the active player, or null (the start tiles, or no tile yet). */
export function placedThisTurn(state: Immutable<GameView>): { readonly index: number; readonly id: string; readonly kind: number } | null {
  const index = state.tiles.length - 1;
  const t = state.tiles[index];
  return t === undefined || t.player < 0 ? null : { index, id: t.id, kind: t.kind };
}

/**
 * The kind (index in the ruleset's catalogue) of the tile placed this turn by the active player,
 * or -1: {@link placedThisTurn}'s `kind` without building the record (asked by every claim on the
 * turn's action, several times a turn).
 */
export function placedKind(state: Immutable<GameView>): number {
  const t = state.tiles[state.tiles.length - 1];
  return t === undefined || t.player < 0 ? -1 : t.kind;
}

/** Whether `cell` is the same cell as `x, y`. */
export function sameCell(cell: Immutable<Cell> | null, x: number, y: number): boolean {
  return cell !== null && cell.x === x && cell.y === y;
}

/** The local feature index of feature id `feature` on the tile with index `tile`, or -1. */
export function localOf(rules: Ruleset, state: Immutable<GameView>, tile: number, feature: unknown): number {
  const def = rules.tiles[state.tiles[tile]!.kind]!;
  return typeof feature === 'string' && Object.hasOwn(def.localIndex, feature) ? def.localIndex[feature]! : -1;
}

/** The player deciding the current step (-1 when the game is over). */
export function decider(state: Immutable<GameView>): number {
  return state.step.kind === 'game-over' ? -1 : state.step.player;
}
