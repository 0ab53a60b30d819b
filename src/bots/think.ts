/**
 * The anytime search: slices of searches between which the event loop runs.
 */
import type { Ruleset } from '../core/ruleset.js';
import type { GameState, Move } from '../core/state.js';
import type { Immutable } from '../core/types.js';
import { err, ok, type Result } from '../core/result.js';
import { legalMoves } from '../core/engine/apply.js';
import { botError, type BotError } from './errors.js';
import type { SearchOptions } from './levels.js';
import { bestMove, createSearch, iterate } from './search.js';

/** Options of {@link think}: the search's, and a signal to stop it. */
export interface ThinkOptions extends SearchOptions {
  /** Stops the search: it then answers the best move found so far. */
  readonly signal?: AbortSignal;
  /** Searches between two yields to the event loop (default 64). */
  readonly slice?: number;
}

/** What {@link think} answers. */
export interface Thought {
  /** The best move found: always legal, even when stopped before any search. */
  readonly move: Move;
  /** Searches run. */
  readonly iterations: number;
  /** Whether the signal stopped the search before its budget ran out. */
  readonly aborted: boolean;
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The search of {@link searchBot}, anytime and asynchronous: it runs in slices of `slice`
 * searches and yields to the event loop between them, so that a UI stays responsive and an
 * `AbortSignal` can stop it; it then answers the best move found so far (a legal move even if
 * aborted before it began). Bounded by `iterations` (the same searches, hence the same move, as
 * `searchBot` with the same options), `timeMs`, or the level's budget. Bad input is an `err`
 * with a code of {@link BOT_ERROR_CODES}; the promise never rejects for it.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { think } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'think' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const stop = new AbortController();
 * setTimeout(() => stop.abort(), 200); // the player pressed "move now"
 * const thought = await think(rules.value, game.value, { level: 5, signal: stop.signal });
 * if (!thought.ok) throw new Error(thought.error.message);
 * console.log(thought.value.move, thought.value.iterations, thought.value.aborted);
 * ```
 */
export async function think(rules: Ruleset, state: Immutable<GameState>, options: ThinkOptions = {}): Promise<Result<Thought, BotError>> {
  const search = createSearch(rules, state, options);
  if (!search.ok) return search;
  const { signal, slice = 64 } = options;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')) return err(botError('bots/bad-options', 'signal must be an AbortSignal'));
  if (typeof slice !== 'number' || !Number.isInteger(slice) || slice < 1) return err(botError('bots/bad-budget', `slice must be a positive whole number, got ${String(slice)}`));
  const s = search.value;
  const deadline = Number.isFinite(s.budget.timeMs) ? performance.now() + s.budget.timeMs : Infinity;
  if (legalMoves(rules, state).length > 1) {
    while (s.iterations < s.budget.iterations && signal?.aborted !== true && performance.now() < deadline) {
      iterate(s, Math.min(slice, s.budget.iterations - s.iterations), deadline);
      await pause();
    }
  }
  return ok({ move: bestMove(s), iterations: s.iterations, aborted: signal?.aborted === true && s.iterations < s.budget.iterations });
}
