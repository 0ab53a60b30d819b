/**
 * Returns and rewards: the score, win-loss and rank utilities. Rewards are differences of returns,
 * so the rewards of a game's transitions always sum to its returns.
 */
import type { Ruleset } from '../core/ruleset.js';
import type { GameView } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import type { ReturnKind } from './layout.js';

/**
 * Each player's return at a state: `score` is the score so far; `win-loss` and `rank` are 0
 * until the game is over, then `win-loss` is 1 for a sole winner, 0 for a shared first place and
 * -1 for the others (from the game's `winners`), and `rank` goes linearly from 1 (first) to -1 (last), tied players sharing
 * the mean of their places (so the returns sum to 0).
 *
 * @example
 * ```ts
 * import { createRandomSource, createRuleset, newGame } from 'meeplekit';
 * import { createResearchSimulator, returns } from 'meeplekit/ai';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 3, seed: 'returns' });
 * if (!game.ok) throw new Error(game.error.message);
 * const sim = createResearchSimulator(rules.value, game.value);
 * sim.playout(createRandomSource('p'));
 * console.log(returns(rules.value, sim.state, 'score'), returns(rules.value, sim.state, 'rank')); // e.g. [ 61, 48, 75 ] [ 0, -1, 1 ]
 * ```
 */
export function returns(rules: Ruleset, state: Immutable<Pick<GameView, 'ruleset' | 'scores' | 'step'>>, kind: ReturnKind = 'score'): number[] {
  if (state.ruleset !== rules.id) throw new TypeError(`meeplekit/ai: this state belongs to ruleset '${state.ruleset}', not '${rules.id}'`);
  const scores = state.scores;
  const n = scores.length;
  if (kind === 'score') return [...scores];
  const out = new Array<number>(n).fill(0);
  const step = state.step;
  if (step.kind !== 'game-over') return out;
  if (kind === 'win-loss') {
    // The game's own verdict (a module may break ties).
    for (let p = 0; p < n; p++) out[p] = step.winners.includes(p) ? (step.winners.length === 1 ? 1 : 0) : -1;
    return out;
  }
  for (let p = 0; p < n; p++) {
    const mine = scores[p]!;
    let better = 0;
    let equal = 0;
    for (let q = 0; q < n; q++) {
      if (scores[q]! > mine) better++;
      else if (scores[q] === mine) equal++;
    }
    // Places better .. better + equal - 1 (0 = first), shared: their mean.
    const place = better + (equal - 1) / 2;
    out[p] = n === 1 ? 0 : 1 - (2 * place) / (n - 1);
  }
  return out;
}

/**
 * Each player's reward for the transition from `before` to `after`: the change of their
 * {@link returns}. Summed over a game's transitions, rewards give the returns at its end.
 */
export function rewards(rules: Ruleset, before: Immutable<Pick<GameView, 'ruleset' | 'scores' | 'step'>>, after: Immutable<Pick<GameView, 'ruleset' | 'scores' | 'step'>>, kind: ReturnKind = 'score'): number[] {
  const a = returns(rules, after, kind);
  const b = returns(rules, before, kind);
  return a.map((v, p) => v - b[p]!);
}
