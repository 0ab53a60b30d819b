/**
 * Bots that choose moves: uniformly random, and greedy (best immediate score change).
 */
import { applyMove, legalMoves } from './core/engine/apply.js';
import type { RandomSource } from './core/rng.js';
import type { Ruleset } from './core/ruleset.js';
import type { GameState, Move } from './core/state.js';
import type { Immutable } from './core/types.js';
import { projectedScores } from './core/engine/query.js';

/**
 * Chooses a move for the player who must decide at `state`; returns one of `legalMoves`.
 * Throws if called when the game is over (there is nothing to decide: a caller's bug).
 *
 * @example
 * ```ts
 * import { applyMove, createRandomSource, createRuleset, greedyBot, newGame, randomBot } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'bots' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const random = createRandomSource('bots');
 * const bots = [randomBot(random), greedyBot(random)];
 * let state = game.value;
 * while (state.step.kind !== 'game-over') {
 *   const next = applyMove(rules.value, state, bots[state.step.player]!(rules.value, state));
 *   if (!next.ok) throw new Error(next.error.message);
 *   state = next.value.state;
 * }
 * console.log(state.scores, state.step.winners);
 * ```
 */
export type Bot = (rules: Ruleset, state: Immutable<GameState>) => Move;

/**
 * A bot that plays a uniformly random legal move, drawn from `random`. Deterministic for a
 * seeded `random` (see {@link createRandomSource}).
 */
export function randomBot(random: RandomSource): Bot {
  return (rules, state) => {
    const moves = legalMoves(rules, state);
    if (moves.length === 0) throw new Error('randomBot: no legal move (the game is over)');
    return moves[random(moves.length)]!;
  };
}

/**
 * A bot that plays the move maximising its own projected score minus the best opponent's
 * (scores if the game ended right after the move: see {@link projectedScores}); ties broken by
 * `random`. It tries every legal move, so it is far slower than {@link randomBot}.
 */
export function greedyBot(random: RandomSource): Bot {
  return (rules, state) => {
    const moves = legalMoves(rules, state);
    if (state.step.kind === 'game-over') throw new Error('greedyBot: no legal move (the game is over)');
    const me = state.step.player;
    let best: Move[] = [];
    let bestValue = -Infinity;
    for (const m of moves) {
      const next = applyMove(rules, state, m);
      if (!next.ok) continue;
      const scores = projectedScores(rules, next.value.state);
      const mine = scores[me]!;
      const rival = Math.max(...scores.filter((_, p) => p !== me));
      const v = mine - rival;
      if (v > bestValue) {
        bestValue = v;
        best = [m];
      } else if (v === bestValue) best.push(m);
    }
    return best[random(best.length)]!;
  };
}
