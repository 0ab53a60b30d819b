/**
 * Determinization for information-set search: a full state consistent with what one player knows.
 */
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { randomBelow, seedRng } from '../core/rng.js';
import { redrawAll } from './chance.js';
import { cloneState } from '../core/engine/clone.js';
import { observe, type Observation } from '../core/engine/observe.js';

/**
 * A full state consistent with everything `player` knows at `input` (a state, or that player's
 * observation of one), with everything they cannot know made up from `seed`: the draw order of
 * the unseen tiles (a fresh generator, so the bag is reshuffled; the bag's contents are public as
 * counts), and what modules hide redrawn by their `chance.redraw` (The Castle: every face-down
 * wall token drawn again from the tokens nobody has seen, the 18 less those taken face up). The
 * result is a new plain state for {@link createResearchSimulator} or {@link applyAction}; it does not
 * replay from its seed (`parseState` refuses it). Different seeds give different futures; the
 * same seed gives the same state.
 *
 * @throws Error for a ruleset with a module that hides part of its state (an `observe` hook)
 * without a way to redraw it (`Expansion.chance`); TypeError for a state of other rules or
 * another player's observation.
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, newGame, observe } from 'meeplekit';
 * import { createResearchSimulator, determinize } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'secret' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const view = observe(rules.value, game.value, 0); // what player 0 is sent
 * const guess = determinize(rules.value, view, 0, 'sample-1');
 * console.log(createResearchSimulator(rules.value, guess).playout(createRandomSource('p')));
 * ```
 */
export function determinize(rules: Ruleset, input: Immutable<GameState> | Immutable<Observation>, player: number, seed: string | number): GameState {
  if (input.ruleset !== rules.id) throw new TypeError(`meeplekit/ai: this state belongs to ruleset '${input.ruleset}', not '${rules.id}'`);
  const hiding = rules.expansions.find((e) => e.observe !== undefined && e.chance === undefined);
  if (hiding !== undefined) throw new Error(`determinize: module '${hiding.id}' hides information and offers no way to redraw it (Expansion.chance)`);
  let view: Immutable<Observation>;
  if ('viewer' in input) {
    if (input.viewer !== player) throw new TypeError(`determinize: this is player ${String(input.viewer)}'s observation, not player ${player}'s`);
    view = input;
  } else view = observe(rules, input, player);
  const text = String(seed);
  const s = cloneState({ ...view, seed: text, rng: seedRng(text) } as Immutable<GameState>);
  // The modules' hidden parts are drawn from a stream of their own, so that the tile order the
  // generator gives does not depend on how many draws they took.
  const hidden = seedRng(`${text}/hidden`);
  redrawAll(rules, s, (n) => randomBelow(hidden, n));
  return s;
}
