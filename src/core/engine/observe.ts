/**
 * The hidden-information boundary: what one player (or a spectator) may see.
 */
import type { GameState } from '../state.js';
import type { Ruleset } from '../ruleset.js';
import type { Immutable } from '../types.js';
import { cloneJson } from './clone.js';

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
 * For a UI, {@link publicView} is smaller and documented field by field; an observation is what a
 * client needs to run `legalMoves`, `featureAt`, `whyIllegal` and `projectedScores` itself.
 *
 * A state of another ruleset (`state.ruleset !== rules.id`) is never misread into a leak: which
 * parts of its modules' slices are secret is known only to its own rules, so none of them is
 * copied (`ext` is `{}`; everything else is public in every ruleset). The observation still names
 * its own ruleset, so the queries refuse it with these rules as they refuse any state of another
 * ruleset, and {@link publicView} refuses such a state with `state/ruleset-mismatch`.
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
  // The shared view (the hiding modules' slices already copied and observed), copied whole.
  return JSON.parse(JSON.stringify(observedView(rules, state, viewer))) as Observation;
}

/**
 * What `viewer` may see of a state, for reading only: what {@link observe} returns, but sharing
 * the state's arrays and records instead of copying them all through JSON; only the slices of the
 * modules that hide something are copied, then observed. It aliases the state, so it must never
 * be written to or leave the library: the vector observations read their projected scores from
 * it (in The Castle, `observe`'s copy was 60 percent of a vector step). @internal
 */
export function observedView(rules: Ruleset, state: Immutable<GameState>, viewer: number | null): Immutable<Observation> {
  const { seed: _seed, rng: _rng, ...visible } = state;
  let ext: Record<string, unknown> = {};
  // Another ruleset's modules hide parts of their slices through hooks these rules do not have:
  // keep no slice at all rather than guess (The Castle's face-down tokens under classic rules).
  if (state.ruleset === rules.id) {
    ext = visible.ext as Record<string, unknown>;
    for (const e of rules.expansions) {
      if (e.observe === undefined || !Object.hasOwn(ext, e.id)) continue;
      if (ext === visible.ext) ext = { ...ext };
      ext[e.id] = e.observe(cloneJson(ext[e.id]), viewer);
    }
  }
  return { ...visible, ext, viewer } as Immutable<Observation>;
}
