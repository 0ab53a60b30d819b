/**
 * The immutable, app-facing API: new games, the current step, legal moves, and `applyMove`,
 * which validates a move and runs the rules recipe inside immer. Inputs are never changed;
 * every returned state is deeply frozen.
 */
import { freeze } from 'immer';
import { meepleError, showValue, type MeepleError } from '../errors.js';
import type { GameEvent } from '../events.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset } from '../ruleset.js';
import type { GameState, GameView, Move, Step } from '../state.js';
import type { Immutable } from '../types.js';
import { checkMove, listMoves } from './legal.js';
import { assertRuleset } from './query.js';
import { playMove, setupGame } from './play.js';
import { cloneState } from './clone.js';
import { deepFreeze, reconcile } from './reconcile.js';

/** Options of a new game. */
export interface NewGameOptions {
  /** Number of players (classic: 2 to 5). */
  readonly players: number;
  /** Seed of all chance in the game: any text, or a safe integer. Same seed, same game. */
  readonly seed: string | number;
}

/** What `applyMove` returns: the next state and the events of the transition. */
export interface Transition {
  /** The state after the move (deeply frozen; the input state is untouched). */
  readonly state: GameState;
  /** What happened, in order. */
  readonly events: readonly GameEvent[];
}

/** Validates new-game options; returns the seed as text. @internal */
export function checkGameOptions(rules: Ruleset, options: unknown): Result<{ players: number; seed: string }, MeepleError> {
  if (typeof options !== 'object' || options === null) {
    return err(meepleError('options/malformed', 'newGame needs an options object { players, seed }'));
  }
  const o = options as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== 'players' && k !== 'seed') return err(meepleError('options/malformed', `unknown game option '${k}' (options: players, seed)`));
  }
  const players = o['players'];
  if (typeof players !== 'number' || !Number.isInteger(players) || players < rules.minPlayers || players > rules.maxPlayers) {
    return err(
      meepleError(
        'options/players',
        rules.minPlayers === rules.maxPlayers
          ? `${rules.id} is played by exactly ${rules.minPlayers} players, got ${showValue(players)}`
          : `players must be an integer from ${rules.minPlayers} to ${rules.maxPlayers} for ${rules.id}, got ${showValue(players)}`,
      ),
    );
  }
  const seed = o['seed'];
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) return err(meepleError('options/seed', `a numeric seed must be a safe integer, got ${seed}`));
    return ok({ players, seed: String(seed) });
  }
  if (typeof seed !== 'string' || seed.length > 256) {
    return err(meepleError('options/seed', 'seed must be a string of at most 256 characters or a safe integer'));
  }
  return ok({ players, seed });
}

/**
 * Starts a game: start tile on the table, every player's followers in supply, the first tile
 * drawn for player 0 with the seeded generator.
 *
 * Errors: `options/players` (classic: 2 to 5), `options/seed`, `options/malformed`. A numeric
 * seed is the same as its decimal text: seeds `7` and `'7'` give the same game.
 *
 * @example
 * ```ts
 * import { createRuleset, currentStep, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'my-seed' });
 * if (game.ok) console.log(currentStep(game.value)); // { kind: 'place-tile', player: 0, tile: ... }
 * ```
 */
export function newGame(rules: Ruleset, options: NewGameOptions): Result<GameState, MeepleError> {
  const checked = checkGameOptions(rules, options);
  if (!checked.ok) return checked;
  return ok(freeze(setupGame(rules, checked.value.players, checked.value.seed, null), true));
}

/** The decision the game is waiting for, and who must take it. */
export function currentStep(state: Immutable<GameView>): Step {
  return state.step as Step;
}

/**
 * Every legal move at the current step, in canonical order (placements north to south, west to
 * east, then by rotation; deployments in the tile's feature order, then pass). `isLegal(m)` is
 * true exactly for these moves. Empty once the game is over. Accepts a state or a player's
 * observation of it (see `observe`).
 *
 * @throws TypeError if the state was made with other rules (a caller's bug, not bad input).
 *
 * @example
 * ```ts
 * import { createRuleset, legalMoves, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'moves' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * for (const m of legalMoves(rules.value, game.value)) console.log(m);
 * // { type: 'place', player: 0, x: 0, y: -1, rotation: 2 } ... one per legal cell and rotation
 * ```
 */
export function legalMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  assertRuleset(rules, state);
  return listMoves(rules, state);
}

/** Whether `move` (any value, such as untrusted input) is legal now. Never throws. */
export function isLegal(rules: Ruleset, state: Immutable<GameView>, move: unknown): boolean {
  return state.ruleset === rules.id && checkMove(rules, state, move) === null;
}

/**
 * Why `move` is not legal now, or `null` if it is. Never throws. Use it to validate untrusted
 * input, or to tell a player why a drop is refused before calling {@link applyMove}.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame, whyIllegal } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'why' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const problem = whyIllegal(rules.value, game.value, { type: 'place', player: 0, x: 5, y: 5, rotation: 0 });
 * console.log(problem?.code); // place/not-adjacent
 * ```
 */
export function whyIllegal(rules: Ruleset, state: Immutable<GameView>, move: unknown): MeepleError | null {
  if (state.ruleset !== rules.id) {
    return meepleError('state/ruleset-mismatch', `state belongs to ruleset '${state.ruleset}', not '${rules.id}'`);
  }
  return checkMove(rules, state, move);
}

/**
 * Plays one move and returns the next state with the events it caused. The input state is
 * never modified (immer); an illegal, malformed or out-of-turn move returns an error and no state.
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, legalMoves, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'apply' });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * let state = game.value;
 * const [move] = legalMoves(rules.value, state);
 * const next = applyMove(rules.value, state, move);
 * if (next.ok) state = next.value.state;
 * else console.error(next.error.code, next.error.message);
 * ```
 */
export function applyMove(rules: Ruleset, state: Immutable<GameState>, move: unknown): Result<Transition, MeepleError> {
  const problem = whyIllegal(rules, state, move);
  if (problem !== null) return err(problem);
  const events: GameEvent[] = [];
  // The frozen result shares every unchanged part with its base, so an input that is not frozen
  // (a Simulator's live state, a JSON copy) would get frozen in place: start from a frozen copy
  // of it (frozen too because reconcile relies on the base being frozen).
  const base = Object.isFrozen(state) ? state : freeze(structuredClone(state) as Immutable<GameState>, true);
  // The recipe runs on a plain copy (the Simulator's code path, without proxies); immer then
  // folds the successor into a draft of the input, sharing what did not change and freezing it.
  const successor = cloneState(base);
  playMove(rules, successor, move as Move, (e) => events.push(e));
  // Expansion slices and the paused-turn record are copied afresh on every move (clone.ts) and
  // may hold records at any depth: freeze them whole, since reconcile freezes adopted arrays
  // only one level deep (their members are frozen at birth everywhere else).
  deepFreeze(successor.ext);
  if (successor.flow !== null) deepFreeze(successor.flow);
  const next = rules.immer.produce(base as GameState, (draft) => {
    reconcile(draft as unknown as Record<string, unknown>, base as unknown as Record<string, unknown>, successor as unknown as Record<string, unknown>);
  });
  return ok({ state: next, events });
}
