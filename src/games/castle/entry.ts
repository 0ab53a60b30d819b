/**
 * Carcassonne: The Castle, Reiner Knizia's two-player game inside a walled board, as a base game
 * module: pass `castle(options)` to `createRuleset`. Also the game's data (the reconstructed
 * layout and tiles, their loaders) and what a UI reads of its board and wall tokens.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { castle } from 'meeplekit/games/castle';
 *
 * const rules = createRuleset({ game: castle({ keep: 'majority' }) });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'castle' });
 * console.log(rules.value.id, game.ok); // castle{"keep":"majority"} true
 * ```
 *
 * @module meeplekit/games/castle
 */
import type { BaseGame } from '../../core/game.js';
import { castleGame } from './index.js';
import type { CastleOptions } from './options.js';
import type { CastleMove } from './state.js';

/**
 * The Castle as a base game for `createRuleset({ game: castle(options) })`. Options are checked
 * by `createRuleset` (`options/game-options`, `options/castle-layout`, `options/castle-tiles`).
 */
export function castle(options?: CastleOptions): BaseGame<CastleMove> {
  const given: Readonly<Record<string, unknown>> = options === undefined ? {} : (options as unknown as Readonly<Record<string, unknown>>);
  return { game: 'castle', options: given, build: () => castleGame(options) };
}

export {
  castleBoard,
  largestEmptyArea,
  WALL_TOKENS,
  type CastleBoard,
  type CastleSlice,
  type HeldToken,
  type KeepPlace,
  type CastleScoreMove,
  type CastleExtraTurnMove,
  type CastleFinalTokenMove,
  type CastleMove,
} from './index.js';
export type { CastleOptions } from './options.js';
export {
  loadCastleLayout,
  loadCastleTiles,
  type CastleLayout,
  type CastleLayoutData,
  type CastleTileSetData,
  type CastleTileData,
  type CastleStartField,
  type CastleStartTile,
  type CastleEdge,
  type SideName,
} from './data.js';
export { RECONSTRUCTED_LAYOUT, RECONSTRUCTED_TILES } from './reconstruction.js';
export type { BaseGame } from '../../core/game.js';
