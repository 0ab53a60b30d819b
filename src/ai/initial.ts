/**
 * The initial state of the research interface: the game set up, the first draw not yet made (a
 * chance node), as OpenSpiel's `new_initial_state()`.
 */
import { meepleError } from '../core/errors.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import { checkGameOptions } from '../core/engine/apply.js';
import { setupGame } from '../core/engine/setup.js';
import { backToChance, concealAll } from './chance.js';

/** Options of {@link newInitialState}. */
export interface InitialStateOptions {
  /** Number of players (the ruleset's range, as `newGame`). */
  readonly players: number;
  /**
   * Seed of what set-up draws at random (The Castle's face-down wall tokens, concealed in explicit
   * chance until taken) and of the state's generator, used by a simulator with `chance: 'seeded'`
   * and by `playout`s of tiles drawn by the engine. Omitted: a fresh random seed, as `newGame`.
   */
  readonly seed?: string | number | undefined;
}

/**
 * The state before the first tile is drawn: start tile(s) on the table, every follower in supply,
 * and a chance node whose outcomes are the tile kinds player 0 may draw first (OpenSpiel's
 * `new_initial_state()`). Apply an outcome (or sample one) with `applyAction` or a simulator
 * from {@link createResearchSimulator}. What set-up leaves hidden is concealed, as in every
 * explicit-chance state (The Castle's wall tokens: decided when taken).
 *
 * @throws RangeError for options `newGame` would refuse (`options/players`, `options/seed`), with
 * the same message and the code in `cause`.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { chanceOutcomes, isChanceNode, newInitialState } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const start = newInitialState(rules.value, { players: 2, seed: 'openspiel' });
 * console.log(isChanceNode(start), start.step.player); // true -1 (the chance player)
 * console.log(chanceOutcomes(rules.value, start).length); // 24: every tile kind may come first
 * ```
 */
export function newInitialState(rules: Ruleset, options: InitialStateOptions): GameState {
  const checked = checkGameOptions(rules, options);
  if (!checked.ok) throw new RangeError(checked.error.message, { cause: checked.error });
  const o = options as unknown as Record<string, unknown>;
  if (o['draws'] !== undefined || o['tokens'] !== undefined) {
    const error = meepleError('options/malformed', 'newInitialState takes players and seed: every draw is a chance node (chosen draws belong to newGame)');
    throw new RangeError(error.message, { cause: error });
  }
  const s = setupGame(rules, checked.value.players, checked.value.seed, null);
  concealAll(rules, s);
  // Set-up drew player 0's first tile: take that draw back (nothing was discarded before it).
  backToChance(rules, s, new Array<number>(s.discarded.length).fill(0));
  return s;
}
