/**
 * The bots' errors: a stable `bots/...` code and a message, as the library's other errors.
 */

/**
 * Every error code of `meeplekit/bots`. Codes are stable API: branch on them; messages are for
 * people and may change.
 *
 * - `bots/game-over`: a move was asked for when the game is over (nobody decides).
 * - `bots/ruleset-mismatch`: the state belongs to other rules than the ruleset given.
 * - `bots/unknown-level`: `level` is not one of {@link LEVELS}.
 * - `bots/bad-budget`: `iterations` or `timeMs` is not a positive finite number (iterations: a
 *   whole number), or neither is left to bound the search.
 * - `bots/bad-options`: another option is malformed (`seed` not a string, `signal` not an
 *   `AbortSignal`, the options not an object).
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { analyse } from 'meeplekit/bots';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'errors' });
 * if (!game.ok) throw new Error(game.error.message);
 * const result = analyse(rules.value, game.value, { level: 9 });
 * if (!result.ok) console.log(result.error.code); // bots/unknown-level
 * ```
 */
export const BOT_ERROR_CODES = ['bots/game-over', 'bots/ruleset-mismatch', 'bots/unknown-level', 'bots/bad-budget', 'bots/bad-options'] as const;

/** One of {@link BOT_ERROR_CODES}. */
export type BotErrorCode = (typeof BOT_ERROR_CODES)[number];

/**
 * A bot's expected failure: returned by {@link analyse} and {@link think} as an `err` Result, and
 * thrown by {@link searchBot} and the bots it makes (a `Bot` returns a move, so it cannot return
 * a Result): the thrown value is an `Error` named `BotError` carrying the same `code`. Discriminate
 * on `code`, never on `instanceof`.
 */
export interface BotError {
  /** What failed: one of {@link BOT_ERROR_CODES}. */
  readonly code: BotErrorCode;
  /** For people. */
  readonly message: string;
}

/** Builds a {@link BotError}. @internal */
export function botError(code: BotErrorCode, message: string): BotError {
  return { code, message };
}

/** The thrown form of a {@link BotError}: an `Error` named `BotError` with its `code`. @internal */
export function botFailure(error: BotError): Error & BotError {
  const e = new Error(`${error.code}: ${error.message}`) as Error & { code: BotErrorCode };
  e.name = 'BotError';
  e.code = error.code;
  return e;
}
