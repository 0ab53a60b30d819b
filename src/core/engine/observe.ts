/**
 * The hidden-information boundary: what one player (or a spectator) may see.
 */
import type { GameState } from '../state.js';
import type { Ruleset } from '../ruleset.js';
import type { Immutable } from '../types.js';

/**
 * A player's view of a game: the state without the seed and the random generator, which
 * together would reveal the draw order. The remaining tiles are visible as counts per kind
 * (`bag`), as they are at a real table; no order is stored anywhere.
 */
export type Observation = Omit<GameState, 'seed' | 'rng'> & {
  /** Who is looking: a player index, or `null` for a spectator. */
  readonly viewer: number | null;
};

/**
 * What `viewer` may see of a state (a fresh plain object; the state is not changed). In classic
 * Carcassonne everything but the draw order is public, so all viewers get the same view.
 *
 * Send observations, never serialized states, to clients: a state's seed fixes every future draw.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, observe } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'table-7' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const view = observe(rules.value, game.value, 1);
 * const message = JSON.stringify(view); // safe to send to player 1
 * console.log('seed' in view, view.bag.reduce((a, b) => a + b, 0)); // false 70
 * ```
 */
export function observe(rules: Ruleset, state: Immutable<GameState>, viewer: number | null): Observation {
  const copy = JSON.parse(JSON.stringify(state)) as GameState;
  const { seed: _seed, rng: _rng, ...visible } = copy;
  for (const e of rules.expansions) {
    if (e.observe !== undefined && Object.hasOwn(visible.ext, e.id)) visible.ext[e.id] = e.observe(visible.ext[e.id], viewer);
  }
  return { ...visible, viewer };
}
