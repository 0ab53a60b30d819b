/**
 * Classic Carcassonne (the base game, 2nd edition) as a base game module. `createRuleset({ game:
 * 'classic' })` is the same game: the classic rules are the base every expansion builds on, so
 * the main entry knows them by name; `classic()` is for code that treats games as modules.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { classic } from 'meeplekit/games/classic';
 *
 * const rules = createRuleset({ game: classic() });
 * console.log(rules.ok && rules.value.id); // classic
 * ```
 *
 * @module meeplekit/games/classic
 */
import type { BaseGame } from '../../core/game.js';
import { ok } from '../../core/result.js';
import { classicGame } from './index.js';

/** Classic Carcassonne as a base game for `createRuleset({ game: classic() })`. It has no options. */
export function classic(): BaseGame<never> {
  return { game: 'classic', options: {}, build: () => ok(classicGame()) };
}

export { CLASSIC_KINDS } from './index.js';
export { CLASSIC_BASE_TILES } from './tiles.js';
export type { BaseGame } from '../../core/game.js';
