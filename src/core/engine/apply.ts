/**
 * The immutable, app-facing API: new games, the current step, legal moves, and `applyMove`,
 * which validates a move and runs the rules recipe inside immer. Inputs are never changed;
 * every returned state is deeply frozen.
 */
import { meepleError, showValue, type MeepleError } from '../errors.js';
import type { GameEvent } from '../events.js';
import { err, ok, type Result } from '../result.js';
import type { Ruleset } from '../ruleset.js';
import type { CoreMove, ExpansionMove, GameState, GameView, Move, Step } from '../state.js';
import type { Immutable } from '../types.js';
import { checkMove, listMoves } from './legal.js';
import { assertRuleset } from './query.js';
import { ChosenDrawError, NO_CHOSEN, type ChosenDraws } from './chosen-draws.js';
import { playMove } from './play.js';
import { setupGame } from './setup.js';
import { cloneState } from './clone.js';
import { deepFreeze, shareWithBase } from './sharing.js';

/** Options of a new game. */
export interface NewGameOptions {
  /** Number of players (classic: 2 to 5). */
  readonly players: number;
  /**
   * Seed of all chance in the game: any text, or a safe integer. Same seed, same game. Omitted: a
   * fresh 128-bit random seed (32 hex digits, from `crypto.getRandomValues`), recorded in the state
   * like any seed. A served game's seed must be unguessable: whoever knows it knows every draw.
   */
  readonly seed?: string | number | undefined;
  /**
   * Chosen draws: the tile kind ids (`'D'`) drawn first, in order, starting with player 0's first
   * tile; then the seeded generator goes on from the bag that is left. A chosen tile that fits
   * nowhere is discarded as the rules say and the next draw follows. Part of the game's
   * definition: the state records them (secret, like the seed), and `parseState`, replays and
   * `undo` use them. Refused as `options/draws` at once when the bag cannot hold them; when the
   * rules hold a chosen tile back at its turn (River: the lake before the course), the move that
   * would draw it is refused as `draw/held-back`. Empty: the same game as none.
   */
  readonly draws?: readonly string[];
  /**
   * The Castle: the face-down wall tokens (kinds 1 to 9, two of each in the game), tower by tower
   * in the order of `castleBoard(rules).towers`, skipping the tower at space 0, which holds none;
   * the towers after the list get tokens drawn from what is left. Other games refuse it
   * (`options/draws`).
   */
  readonly tokens?: readonly number[];
}

/** What `applyMove` returns: the next state and the events of the transition. */
export interface Transition {
  /** The state after the move (deeply frozen; the input state is untouched). */
  readonly state: GameState;
  /** What happened, in order. */
  readonly events: readonly GameEvent[];
}

/** Longest list of chosen draws or tokens looked at (far above any game's tiles). */
const MAX_CHOSEN = 10_000;

/** A fresh 128-bit random seed as 32 hex digits, from the platform's cryptographic generator. */
function randomSeed(): string {
  const words = new Uint32Array(4);
  globalThis.crypto.getRandomValues(words);
  let text = '';
  for (const w of words) text += w.toString(16).padStart(8, '0');
  return text;
}

/** Checked new-game options: the seed as text, chosen draws as tile kind indices. @internal */
export interface GameOptions {
  /** Number of players. */
  readonly players: number;
  /** The seed as text. */
  readonly seed: string;
  /** The chosen draws and tokens. */
  readonly chosen: ChosenDraws;
}

/**
 * Validates new-game options; returns the seed as text and the chosen draws as tile kind indices.
 * `recorded`: the options come from a state or replay, whose seed must be there (no fresh seed is
 * made up). @internal
 */
export function checkGameOptions(rules: Ruleset, options: unknown, recorded = false): Result<GameOptions, MeepleError> {
  if (typeof options !== 'object' || options === null) {
    return err(meepleError('options/malformed', 'newGame needs an options object { players, seed }'));
  }
  const o = options as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== 'players' && k !== 'seed' && k !== 'draws' && k !== 'tokens') {
      return err(meepleError('options/malformed', `unknown game option '${k}' (options: players, seed, draws, tokens)`));
    }
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
  let text: string;
  if (seed === undefined && !recorded) text = randomSeed();
  else if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) return err(meepleError('options/seed', `a numeric seed must be a safe integer, got ${seed}`));
    text = String(seed);
  } else if (typeof seed !== 'string' || seed.length > 256) {
    return err(meepleError('options/seed', 'seed must be a string of at most 256 characters or a safe integer'));
  } else text = seed;
  const chosen = checkChosen(rules, o['draws'], o['tokens']);
  if (!chosen.ok) return chosen;
  return ok({ players, seed: text, chosen: chosen.value });
}

/** Checks the shape of chosen draws (tile kind ids of these rules) and tokens (integers); the rest is for set-up to check. */
function checkChosen(rules: Ruleset, draws: unknown, tokens: unknown): Result<ChosenDraws, MeepleError> {
  if (draws === undefined && tokens === undefined) return ok(NO_CHOSEN);
  const kinds: number[] = [];
  if (draws !== undefined) {
    if (!Array.isArray(draws) || draws.length > MAX_CHOSEN) {
      return err(meepleError('options/draws', `draws must be an array of tile kind ids such as 'D', got ${showValue(draws)}`));
    }
    for (let i = 0; i < draws.length; i++) {
      const id: unknown = draws[i];
      const k = typeof id === 'string' && Object.hasOwn(rules.tileIndex, id) ? rules.tileIndex[id]! : -1;
      if (k < 0) return err(meepleError('options/draws', `draws[${i}]: ${showValue(id)} is no tile kind of ${rules.id}`));
      kinds.push(k);
    }
  }
  if (tokens !== undefined && (!Array.isArray(tokens) || tokens.length > MAX_CHOSEN || !tokens.every((t) => typeof t === 'number' && Number.isInteger(t)))) {
    return err(meepleError('options/draws', `tokens must be an array of token kinds (integers), got ${showValue(tokens)}`));
  }
  return ok({ draws: kinds, tokens: (tokens as number[] | undefined) ?? [] });
}

/**
 * Starts a game: start tile on the table, every player's followers in supply, the first tile
 * drawn for player 0 (the first chosen draw, or with the seeded generator).
 *
 * Errors: `options/players` (classic: 2 to 5), `options/seed`, `options/draws` (a chosen draw
 * that is no tile kind of these rules, more copies than the bag holds, a first tile the rules
 * hold back, or tokens a game has not or cannot have), `options/malformed`. A numeric seed is the
 * same as its decimal text: seeds `7` and `'7'` give the same game. Without a seed the game gets
 * a fresh random one (see {@link NewGameOptions.seed}).
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
  const { players, seed, chosen } = checked.value;
  try {
    return ok(deepFreeze(setupGame(rules, players, seed, null, chosen)));
  } catch (e) {
    if (e instanceof ChosenDrawError) return err(e.error);
    throw e;
  }
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
 * What the untrusted overload of {@link applyMove} accepts: any value whose type does not say it
 * is a move built in code, so that a move written in code with a mistake (a misspelt field, a
 * missing one, a wrong or misspelt `type`) is a compile error rather than a refusal at run time.
 * A value is taken as built in code when it is an object whose `type` has a literal type
 * (`'place'`, `'tower/build'`) and none of whose fields is `unknown`; such a value must be one of
 * `Allowed`: the core's moves and the moves of the ruleset's modules (any {@link Move} for a
 * `Ruleset` with no type parameter). Anything else (`unknown`, `any`, `Move`, `ExpansionMove`,
 * `Move | undefined`, `Record<string, unknown>`, an object with a field read from input) is
 * untrusted input, checked at run time.
 *
 * A value built in code that is not allowed resolves to the allowed move of its `type`, so that
 * the compiler's error names the misspelt field (`'rotaton' does not exist in type 'PlaceMove'`),
 * or, for a `type` no move has, to all the allowed moves, so that the error lists the `type`s
 * there are.
 */
export type UntrustedMove<M, Allowed = Move> = unknown extends M
  ? M
  : M extends {
        /** The move's kind (`'place'`): a literal type says the value was built in code. */
        readonly type: infer T;
      }
    ? string extends T
      ? M
      : `${string}/${string}` extends T
        ? M
        : M extends Allowed
          ? M
          : true extends { [K in keyof M]-?: unknown extends M[K] ? true : false }[keyof M]
            ? M
            : [
                  Extract<
                    Allowed,
                    {
                      /** The value's kind: the allowed move of that kind, if there is one. */
                      readonly type: T;
                    }
                  >,
                ] extends [never]
              ? Allowed
              : Extract<
                  Allowed,
                  {
                    /** The value's kind: the allowed move of that kind. */
                    readonly type: T;
                  }
                >
    : M;

/**
 * Plays one move built in code and returns the next state with the events it caused. Typed: a
 * misspelt or missing field is a compile error that names it (`{ type: 'place', player: 0, x: 1,
 * y: 0, rotaton: 1 }`: "'rotaton' does not exist in type 'PlaceMove'"), and so is a module move
 * that no module of the ruleset has (`'tower/plase'`, or `'tower/build'` in a ruleset without the
 * Tower), when the ruleset's type knows its modules (`createRuleset` works them out: see
 * {@link Ruleset}). The move is still validated against the state, as every move is; the input
 * state is never modified.
 *
 * @example
 * ```ts
 * import { applyMove, createRuleset, newGame } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'typed', draws: ['D'] });
 * if (!game.ok) throw new Error(game.error.message);
 *
 * const next = applyMove(rules.value, game.value, { type: 'place', player: 0, x: 1, y: 0, rotation: 0 });
 * console.log(next.ok); // true: tile D continues the start tile's road eastwards
 * ```
 */
export function applyMove<X = ExpansionMove>(rules: Ruleset<X>, state: Immutable<GameState>, move: CoreMove | NoInfer<X>): Result<Transition, MeepleError>;
/**
 * Plays one move given as untrusted input (a message from a client, parsed JSON: type it
 * `unknown`) and returns the next state with the events it caused. The input state is never
 * modified (immer); an illegal, malformed or out-of-turn move returns an error and no state, and
 * so does a move after which the game's chosen next tile cannot be drawn (`draw/held-back`, see
 * {@link NewGameOptions.draws}). Moves built in code take the typed overload; see
 * {@link UntrustedMove} for which values this one accepts.
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
 * const message: unknown = JSON.parse(JSON.stringify(legalMoves(rules.value, state)[0])); // from a client
 * const next = applyMove(rules.value, state, message);
 * if (next.ok) state = next.value.state;
 * else console.error(next.error.code, next.error.message);
 * ```
 */
export function applyMove<const M, X = ExpansionMove>(
  rules: Ruleset<X>,
  state: Immutable<GameState>,
  move: UntrustedMove<M, CoreMove | NoInfer<X>>,
): Result<Transition, MeepleError>;
export function applyMove(rules: Ruleset, state: Immutable<GameState>, move: unknown): Result<Transition, MeepleError> {
  const problem = whyIllegal(rules, state, move);
  if (problem !== null) return err(problem);
  const events: GameEvent[] = [];
  // The frozen result shares every unchanged part with its base, so an input that is not frozen
  // (a Simulator's live state, a JSON copy) would get frozen in place: start from a frozen copy
  // of it (frozen too because shareWithBase relies on the base being frozen).
  const base = Object.isFrozen(state) ? state : deepFreeze(structuredClone(state) as Immutable<GameState>);
  // The recipe runs on a plain copy (the Simulator's code path, without proxies); immer then
  // folds the successor into a draft of the input, sharing what did not change and freezing it.
  const successor = cloneState(base);
  try {
    playMove(rules, successor, move as Move, (e) => events.push(e));
  } catch (e) {
    // The game's chosen next tile is held back after this move: the copy is dropped.
    if (e instanceof ChosenDrawError) return err(e.error);
    throw e;
  }
  // Expansion slices and the paused-turn record are copied afresh on every move (clone.ts) and
  // may hold records at any depth: freeze them whole, since shareWithBase freezes adopted arrays
  // only one level deep (their members are frozen at birth everywhere else).
  deepFreeze(successor.ext);
  if (successor.flow !== null) deepFreeze(successor.flow);
  shareWithBase(base as unknown as Record<string, unknown>, successor as unknown as Record<string, unknown>);
  // The successor, sharing the base's unchanged parts and frozen, is the producer's result (immer's
  // "return a replacement" form): nothing is drafted. Drafting the root instead made immer copy
  // the frozen base root (a slow path in V8) and trap every changed field: a fifth of applyMove.
  const next = rules.immer.produce(base as GameState, () => Object.freeze(successor));
  return ok({ state: next, events });
}
