/**
 * Analysis of a decision: every candidate the search looked at, with its visits and expected
 * result, for hints, for the cost of a move played and for post-game review.
 */
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, Move } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { err, ok, type Result } from '../core/result.js';
import { actionToMove } from '../ai/actions.js';
import type { BotError } from './errors.js';
import type { SearchOptions } from './levels.js';
import { createSearch, iterate, ranked, runSearch } from './search.js';

/** One candidate move of an {@link Analysis}. */
export interface Candidate {
  /** The move. */
  readonly move: Move;
  /** Searches that began with it. */
  readonly visits: number;
  /**
   * The deciding player's expected score difference to their best opponent after it (the mean
   * over its searches of the projected or final difference): compare candidates by it.
   */
  readonly margin: number;
  /** The mean reward from 0 to 1 the search maximised (a logistic curve of the difference). */
  readonly value: number;
}

/** What {@link analyse} answers. */
export interface Analysis {
  /** Who decides. */
  readonly player: number;
  /** Searches run. */
  readonly iterations: number;
  /** The move the search recommends (the first candidate). */
  readonly best: Move;
  /**
   * The candidates, most searched first. With at least as many searches as legal moves every
   * legal move is here (each is tried once before any is tried twice).
   */
  readonly candidates: readonly Candidate[];
}

/**
 * Searches `state`'s decision and lists the candidates with their visits and expected score
 * difference, for the player who decides there: a hint is `best`; what a move cost is the best
 * candidate's `margin` less that move's (see {@link moveCost}); a post-game review analyses each
 * decision of the history. Deterministic for an iteration budget, as {@link searchBot}.
 *
 * Errors (`err`, never thrown): {@link BOT_ERROR_CODES}.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { analyse } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'hint' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const hint = analyse(rules.value, game.value, { iterations: 200 });
 * if (!hint.ok) throw new Error(hint.error.message);
 * for (const c of hint.value.candidates.slice(0, 3)) console.log(c.move, c.visits, c.margin.toFixed(1));
 * ```
 */
export function analyse(rules: Ruleset, state: Immutable<GameState>, options: SearchOptions = {}): Result<Analysis, BotError> {
  const search = createSearch(rules, state, options);
  if (!search.ok) return search;
  const s = search.value;
  runSearch(s);
  // A single legal move is not searched: search it a little so that it has figures.
  if (s.iterations === 0) iterate(s, Math.min(s.budget.iterations, 16));
  const candidates: Candidate[] = [];
  for (const [a, n] of ranked(s)) {
    const move = actionToMove(rules, state, a);
    if (move === null || n.visits === 0) continue;
    candidates.push({ move, visits: n.visits, margin: n.margin[s.player]! / n.visits, value: n.reward[s.player]! / n.visits });
  }
  const best = candidates[0]?.move;
  if (best === undefined) return err({ code: 'bots/bad-budget', message: 'the search ran no iteration' });
  return ok({ player: s.player, iterations: s.iterations, best, candidates });
}

/**
 * What playing `move` cost by `analysis`: the best candidate's expected score difference less
 * the move's (0 for the best move), or null when the search did not look at that move.
 *
 * @example
 * ```ts
 * import { createRuleset, legalMoves, newGame } from 'meeplekit';
 * import { analyse, moveCost } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'review' });
 * if (!game.ok) throw new Error(game.error.message);
 * const review = analyse(rules.value, game.value, { iterations: 300 });
 * if (!review.ok) throw new Error(review.error.message);
 * const played = legalMoves(rules.value, game.value)[0]!;
 * console.log(moveCost(review.value, played)); // points lost against the best move, or null
 * ```
 */
export function moveCost(analysis: Analysis, move: Move): number | null {
  const same = (m: Move): boolean => JSON.stringify(m) === JSON.stringify(move);
  const c = analysis.candidates.find((x) => same(x.move));
  if (c === undefined) return null;
  return analysis.candidates[0]!.margin - c.margin;
}
